import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/database.js';
import { errors } from '../errors.js';
import { checkName } from '../folders/rules.js';
import { newId } from '../ids.js';
import { utmErrors } from './errors.js';
import type { UtmTemplatesRepository } from './repository.js';
import { applyUtm, checkUtmValues, TEMPLATE_NAME_MAX, type UtmField } from './rules.js';
import { toTemplate, type UtmTemplate } from './template.js';

export interface UtmTemplateInput extends Partial<Record<UtmField, unknown>> {
  name?: unknown;
}

/** Names that differ only in case (or Unicode normalisation) are one template to a person. */
const nameKeyOf = (name: string) => name.normalize('NFC').toLowerCase();

/**
 * UTM templates: named sets of utm_* parameters an account adds to destinations when shortening (REST A and B,
 * link creation with `utmTemplateId`, and the MCP tools list/create/delete_utm_template and shorten_url).
 */
export class UtmTemplatesService {
  constructor(
    private readonly repo: UtmTemplatesRepository,
    private readonly clock: Clock,
  ) {}

  async list(caller: Caller): Promise<{ templates: UtmTemplate[] }> {
    return { templates: (await this.repo.list(caller.accountId)).map(toTemplate) };
  }

  async create(caller: Caller, input: UtmTemplateInput): Promise<UtmTemplate> {
    const name = checkName(input.name, TEMPLATE_NAME_MAX);
    const values = checkUtmValues(input);
    const row = {
      id: newId('tpl'),
      account_id: caller.accountId,
      name,
      name_key: nameKeyOf(name),
      utm_source: values.utmSource,
      utm_medium: values.utmMedium,
      utm_campaign: values.utmCampaign,
      utm_term: values.utmTerm,
      utm_content: values.utmContent,
      created_at: this.clock.now().toISOString(),
    };
    try {
      // The unique (account, name_key) index decides between two creates racing for one name.
      await this.repo.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw utmErrors.exists();
      throw error;
    }
    return toTemplate(row);
  }

  /** Deletes the caller's template and answers it; links made with it keep their destinations. */
  async delete(caller: Caller, id: string): Promise<UtmTemplate> {
    const row = await this.repo.delete(caller.accountId, id);
    if (!row) throw utmErrors.notFound();
    return toTemplate(row);
  }

  /**
   * `url` with the caller's template's utm_* parameters set: same-named parameters are replaced, the others kept
   * as written. Another account's template is TEMPLATE_NOT_FOUND, as an unknown one.
   */
  async apply(caller: Caller, templateId: string, url: string): Promise<string> {
    const template = await this.repo.find(caller.accountId, templateId);
    if (!template) throw utmErrors.notFound();
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw errors.invalidUrl('not an absolute URL');
    }
    const t = toTemplate(template);
    return applyUtm(parsed, { utmSource: t.utmSource, utmMedium: t.utmMedium, utmCampaign: t.utmCampaign, utmTerm: t.utmTerm, utmContent: t.utmContent });
  }
}
