import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/database.js';
import { folderErrors } from '../folders/errors.js';
import { checkName, invalidName } from '../folders/rules.js';
import { newId } from '../ids.js';
import type { LinksRepository } from '../links/repository.js';
import { UNFILED } from '../links/service.js';
import { viewErrors } from './errors.js';
import { checkFilters, type ViewFilters } from './filters.js';
import type { SavedViewPatch, SavedViewsRepository } from './repository.js';
import { filtersOf, toView, type SavedView } from './view.js';

export const VIEW_NAME_MAX = 50;

export interface SavedViewInput {
  name?: unknown;
  filters?: unknown;
}

/** Names that differ only in case (or Unicode normalisation) are one view to a person. */
const nameKeyOf = (name: string) => name.normalize('NFC').toLowerCase();

/**
 * Saved views: named link-list filters (folder, tag, domain, search) an account keeps and lists its links by
 * (`?view=<id>` on the link lists). For REST A and B and the MCP tools list/create/update/delete_saved_view.
 */
export class SavedViewsService {
  constructor(
    private readonly repo: SavedViewsRepository,
    private readonly links: Pick<LinksRepository, 'hasFolder'>,
    private readonly clock: Clock,
  ) {}

  async list(caller: Caller): Promise<{ views: SavedView[] }> {
    return { views: (await this.repo.list(caller.accountId)).map(toView) };
  }

  async create(caller: Caller, input: SavedViewInput): Promise<SavedView> {
    const name = checkName(input.name, VIEW_NAME_MAX);
    const filters = await this.checkFilters(caller, input.filters);
    const now = this.clock.now().toISOString();
    const row = { id: newId('view'), account_id: caller.accountId, name, name_key: nameKeyOf(name), filters: JSON.stringify(filters), created_at: now, updated_at: now };
    await this.unique(() => this.repo.insert(row));
    return toView(row);
  }

  /** Only what is given changes; `filters`, when given, replaces the view's filters as a whole. */
  async update(caller: Caller, id: string, input: SavedViewInput): Promise<SavedView> {
    const patch: SavedViewPatch = {};
    if (input.name !== undefined) {
      // A view always has a name: null is refused rather than read as "unchanged".
      if (input.name === null) throw invalidName(VIEW_NAME_MAX);
      const name = checkName(input.name, VIEW_NAME_MAX);
      Object.assign(patch, { name, name_key: nameKeyOf(name) });
    }
    if (input.filters !== undefined) patch.filters = JSON.stringify(await this.checkFilters(caller, input.filters));
    if (Object.keys(patch).length === 0) {
      const row = await this.repo.find(caller.accountId, id);
      if (!row) throw viewErrors.notFound();
      return toView(row);
    }
    patch.updated_at = this.clock.now().toISOString();
    const row = await this.unique(() => this.repo.update(caller.accountId, id, patch));
    if (!row) throw viewErrors.notFound();
    return toView(row);
  }

  /** Deletes the caller's view and answers it; the links are untouched. */
  async delete(caller: Caller, id: string): Promise<SavedView> {
    const row = await this.repo.delete(caller.accountId, id);
    if (!row) throw viewErrors.notFound();
    return toView(row);
  }

  /** The filters of the caller's view, for the link list; another account's view is VIEW_NOT_FOUND. */
  async filtersOf(caller: Caller, id: string): Promise<ViewFilters> {
    const row = await this.repo.find(caller.accountId, id);
    if (!row) throw viewErrors.notFound();
    return filtersOf(row);
  }

  /** The rules of filters, and a folder filter must name one of the caller's folders (404 FOLDER_NOT_FOUND). */
  private async checkFilters(caller: Caller, raw: unknown): Promise<ViewFilters> {
    const filters = checkFilters(raw);
    if (filters.folderId !== undefined && filters.folderId !== UNFILED && !(await this.links.hasFolder(caller.accountId, filters.folderId))) {
      throw folderErrors.notFound();
    }
    return filters;
  }

  /** Runs a write; the unique (account, name_key) index decides between two writes racing for one name. */
  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw viewErrors.exists();
      throw error;
    }
  }
}
