import { ApiError, snip, type Answer, type ApiErrorCode, type Body } from '../api';

export type UtmTemplate = Answer<'/api/utm-templates', 'post'>;
export type UtmField = 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmTerm' | 'utmContent';
export type TemplateInput = Body<'/api/utm-templates', 'post'> & { name: string } & Record<UtmField, string | null>;

/** Each field with the query parameter it sets and the API's error code for a bad value. */
export const UTM_FIELDS: { key: UtmField; param: string; label: string; hint: string; code: ApiErrorCode }[] = [
  { key: 'utmSource', param: 'utm_source', label: 'Source (utm_source)', hint: 'Where the visit comes from: newsletter, twitter', code: 'INVALID_UTM_SOURCE' },
  { key: 'utmMedium', param: 'utm_medium', label: 'Medium (utm_medium)', hint: 'The kind of channel: email, social, cpc', code: 'INVALID_UTM_MEDIUM' },
  { key: 'utmCampaign', param: 'utm_campaign', label: 'Campaign (utm_campaign)', hint: 'The campaign: spring-sale', code: 'INVALID_UTM_CAMPAIGN' },
  { key: 'utmTerm', param: 'utm_term', label: 'Term (utm_term)', hint: 'Paid search keyword', code: 'INVALID_UTM_TERM' },
  { key: 'utmContent', param: 'utm_content', label: 'Content (utm_content)', hint: 'Which ad or link: header-button', code: 'INVALID_UTM_CONTENT' },
];

// The links page's template picker reads the same key.
export const UTM_TEMPLATES_KEY = ['utm-templates'];

export const listTemplates = () => snip.get('/api/utm-templates');
export const createTemplate = (input: TemplateInput) => snip.post('/api/utm-templates', { body: input });
export const deleteTemplate = (id: string) => snip.delete('/api/utm-templates/{id}', { params: { path: { id } } });

/** The parameters a template adds, as they appear in a destination's query string. */
export function queryOf(template: Record<UtmField, string | null>): string {
  // As the server writes them (src/utm/apply.ts): a space is %20, never +.
  return UTM_FIELDS.flatMap(({ key, param }) => (template[key] ? [`${param}=${encodeURIComponent(template[key])}`] : [])).join('&');
}

const inputOf = (t: UtmTemplate): TemplateInput => ({ name: t.name, utmSource: t.utmSource, utmMedium: t.utmMedium, utmCampaign: t.utmCampaign, utmTerm: t.utmTerm, utmContent: t.utmContent });

/** An edit that deleted the old template but could not save the new one: the form keeps the values to create it. */
export class TemplateRemoved extends Error {
  override readonly name = 'TemplateRemoved';
}

// A refusal of the values themselves (400, 409) would refuse nothing in the old template, so putting it back is
// worth a try; a rate limit or a dropped connection would most likely refuse the put-back too.
const worthRestoring = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

/**
 * The API has no update for a template, only create and delete; a link keeps the parameters it was made with, so
 * replacing a template changes nothing for existing links. A new name is created before the old template goes, so
 * a refusal leaves the old one untouched. The same name (unique ignoring case) has to be freed first: if the new
 * values are then refused, the old template is put back; if that fails too, TEMPLATE_REMOVED says so.
 */
export async function replaceTemplate(old: UtmTemplate, next: TemplateInput): Promise<UtmTemplate> {
  if (next.name.trim().toLowerCase() !== old.name.toLowerCase()) {
    const created = await createTemplate(next);
    await deleteTemplate(old.id);
    return created;
  }
  await deleteTemplate(old.id);
  try {
    return await createTemplate(next);
  } catch (error) {
    if (worthRestoring(error)) {
      const restored = await createTemplate(inputOf(old)).then(
        () => true,
        () => false,
      );
      if (restored) throw error;
    }
    const message = error instanceof Error ? error.message.trim() : 'Snip could not be reached';
    const reason = /[.!?]$/.test(message) ? message : `${message}.`;
    throw new TemplateRemoved(`"${old.name}" was deleted, but its new version was not saved: ${reason} Your values are still here; save again to create it.`, { cause: error });
  }
}
