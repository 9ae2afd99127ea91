import { limitsOf, type Plans } from '../plans.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { errors, requireChange } from '../errors.js';
import { newId } from '../ids.js';
import type { LinksRepository } from '../links/repository.js';
import { parseShortPath } from '../links/rules.js';
import { folderErrors } from './errors.js';
import { toFolder, type Folder } from './folder.js';
import type { FolderPatch, FoldersRepository } from './repository.js';
import { checkColor, checkFolderId, checkName, invalidName, NAME_MAX_A, sameName } from './rules.js';

export interface FolderInput {
  name?: unknown;
  color?: unknown;
}

export interface FolderList {
  folders: Folder[];
  /** The plan's maximum; null is unlimited. */
  limit: number | null;
  canCreate: boolean;
}

/** How long a name may be: each surface passes its description's maximum (B 40; A and the MCP tools 50). */
export interface NameRule {
  maxNameLength: number;
}

const DEFAULT_NAME_RULE: NameRule = { maxNameLength: NAME_MAX_A };

/**
 * Folders: the account's own labels for its links. The rules live here for every surface (REST A and B, the MCP
 * folder tools): names and colours, unique names per account, the plan's folder limit, and who may file what.
 */
export class FoldersService {
  constructor(
    private readonly repo: FoldersRepository,
    private readonly links: LinksRepository,
    private readonly plans: Plans,
    private readonly clock: Clock,
  ) {}

  async list(caller: Caller): Promise<FolderList> {
    const folders = (await this.repo.list(caller.accountId)).map(toFolder);
    const limit = this.limitOf(caller);
    return { folders, limit, canCreate: limit === null || folders.length < limit };
  }

  async create(caller: Caller, input: FolderInput, rule: NameRule = DEFAULT_NAME_RULE): Promise<Folder> {
    const name = checkName(input.name, rule.maxNameLength);
    const color = checkColor(input.color);
    const limit = this.limitOf(caller);
    const row = { id: newId('fld'), account_id: caller.accountId, name, color, created_at: this.clock.now().toISOString() };
    await this.repo.exclusive(caller.accountId, async (repo) => {
      const existing = await repo.names(caller.accountId);
      // A plan lowered below the folders an account has keeps them, but allows no new one.
      if (limit !== null && existing.length >= limit) throw folderErrors.limitReached(limit);
      if (existing.some((f) => sameName(f.name, name))) throw folderErrors.exists();
      await repo.insert(row);
    });
    return toFolder({ ...row, link_count: 0 });
  }

  /** Only the fields present change; a null color removes the colour. */
  async update(caller: Caller, id: string, input: FolderInput, rule: NameRule = DEFAULT_NAME_RULE): Promise<Folder> {
    requireChange(input);
    const patch: FolderPatch = {};
    if (input.name !== undefined) {
      // A folder always has a name: null is refused here rather than read as "unchanged".
      if (input.name === null) throw invalidName(rule.maxNameLength);
      patch.name = checkName(input.name, rule.maxNameLength);
    }
    if (input.color !== undefined) patch.color = checkColor(input.color);
    const folder = await this.repo.exclusive(caller.accountId, async (repo) => {
      const folders = await repo.names(caller.accountId);
      if (!folders.some((f) => f.id === id)) throw folderErrors.notFound();
      const name = patch.name;
      if (name !== undefined && folders.some((f) => f.id !== id && sameName(f.name, name))) throw folderErrors.exists();
      if (Object.keys(patch).length > 0) await repo.update(caller.accountId, id, patch);
      return repo.find(caller.accountId, id);
    });
    if (!folder) throw folderErrors.notFound();
    return toFolder(folder);
  }

  /** Deletes the folder; its links stay, unfiled. Answers how many links were taken out of it. */
  async delete(caller: Caller, id: string): Promise<{ unassigned: number }> {
    const unassigned = await this.repo.delete(caller.accountId, id);
    if (unassigned === null) throw folderErrors.notFound();
    return { unassigned };
  }

  /**
   * Files the caller's link (by code or `<prefix>/<slug>`) in one of the caller's folders, or, with null, in none.
   * Moving to another folder is the same call. Another account's link or folder is 404 FOLDER_ACCESS_DENIED, "Access denied" (§7).
   */
  async assign(caller: Caller, shortPath: string, folderIdInput: unknown): Promise<{ folderId: string | null }> {
    const folderId = checkFolderId(folderIdInput);
    const link = await this.links.find(parseShortPath(shortPath));
    if (!link) throw errors.linkNotFound();
    if (link.account_id !== caller.accountId) throw folderErrors.accessDenied();
    if (folderId !== null) {
      const owner = await this.repo.ownerOf(folderId);
      if (owner === undefined) throw folderErrors.notFound();
      if (owner !== caller.accountId) throw folderErrors.accessDenied();
    }
    if (!(await this.repo.assign(link.id, caller.accountId, folderId))) throw folderErrors.notFound();
    return { folderId };
  }

  private limitOf(caller: Caller): number | null {
    return limitsOf(this.plans, caller).folders;
  }
}
