import type { UtmTemplateRow } from './repository.js';

/** A UTM template as every surface shows it: the utm_* values a link's destination gets, null where unset. */
export interface UtmTemplate {
  id: string;
  name: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  createdAt: string;
}

export const toTemplate = (row: UtmTemplateRow): UtmTemplate => ({
  id: row.id,
  name: row.name,
  utmSource: row.utm_source,
  utmMedium: row.utm_medium,
  utmCampaign: row.utm_campaign,
  utmTerm: row.utm_term,
  utmContent: row.utm_content,
  createdAt: row.created_at,
});
