import { folderErrors } from '../folders/errors.js';
import { UNFILED } from '../links/service.js';
import { checkTag } from '../tags/rules.js';
import { checkDomainFilter, checkSearch, type ViewFilters } from '../views/filters.js';
import type { ExportFilter } from './repository.js';

/** The link list's filters (GET /api/links), as a links export takes them: the dashboard exports what it lists. */
export type LinkExportFilters = ViewFilters;

/**
 * The filters checked by the link list's own rules (src/links/service.ts `list`), so a filter the list takes is
 * taken alike here and one it refuses is refused with the same code: a folder id or `none` (links in no folder;
 * another account's folder is FOLDER_NOT_FOUND), a tag (INVALID_TAG), a domain (INVALID_DOMAIN), a search of at most
 * 200 characters (INVALID_SEARCH; blank is no search).
 */
export async function checkExportFilters(
  given: LinkExportFilters,
  ownsFolder: (folderId: string) => Promise<boolean>,
): Promise<ExportFilter> {
  const filter: ExportFilter = {};
  if (given.folderId !== undefined) {
    if (given.folderId === UNFILED) filter.folderId = null;
    else if (await ownsFolder(given.folderId)) filter.folderId = given.folderId;
    else throw folderErrors.notFound();
  }
  if (given.tag !== undefined) filter.tagKey = checkTag(given.tag).key;
  if (given.domain !== undefined) filter.domain = checkDomainFilter(given.domain);
  if (given.search !== undefined) {
    const search = checkSearch(given.search)?.toLowerCase();
    if (search !== undefined) filter.search = search;
  }
  return filter;
}
