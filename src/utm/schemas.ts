import { Type } from '@sinclair/typebox';
import { DateTime, Nullable } from '../schema/shapes.js';
import { TEMPLATE_NAME_MAX, UTM_VALUE_MAX } from './rules.js';
import { named } from '../schema/names.js';

const value = (param: string) => Nullable(Type.String({ description: `The ${param} value; null when the template leaves it alone` }));
// Lengths are checked by the service after trimming, so the schemas only say what they are.
const valueIn = (param: string) =>
  Type.Optional(Nullable(Type.String({ description: `The ${param} value, 1-${UTM_VALUE_MAX} characters after trimming; absent or null: not set` })));

export const UtmTemplateObject = named('UtmTemplate', 'A UTM template: utm_* values for destinations', Type.Object({
  id: Type.String(),
  name: Type.String(),
  utmSource: value('utm_source'),
  utmMedium: value('utm_medium'),
  utmCampaign: value('utm_campaign'),
  utmTerm: value('utm_term'),
  utmContent: value('utm_content'),
  createdAt: DateTime(),
}));

export const UtmTemplateList = Type.Object({ templates: Type.Array(UtmTemplateObject, { description: 'Oldest first' }) });

export const CreateUtmTemplateBody = Type.Object(
  {
    name: Type.String({ description: `1-${TEMPLATE_NAME_MAX} characters after trimming; unique in the account, ignoring case` }),
    utmSource: valueIn('utm_source'),
    utmMedium: valueIn('utm_medium'),
    utmCampaign: valueIn('utm_campaign'),
    utmTerm: valueIn('utm_term'),
    utmContent: valueIn('utm_content'),
  },
  { description: 'At least one utm value must be set' },
);

export const UtmTemplateParams = Type.Object({ id: Type.String() });
