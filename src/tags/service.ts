import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/database.js';
import { AppError, errors } from '../errors.js';
import type { LinkRow } from '../links/link-row.js';
import type { LinksRepository } from '../links/repository.js';
import { parseShortPath } from '../links/rules.js';
import { tagErrors } from './errors.js';
import type { TagsRepository } from './repository.js';
import { byTag, checkTag, importedTag, MAX_TAGS_PER_LINK, type CheckedTag } from './rules.js';

/** One of the account's tags and how many of its links carry it. */
export interface TagCount {
  tag: string;
  linkCount: number;
}

/** A link's tags after a change, in display order. */
export interface LinkTags {
  tags: string[];
}

/**
 * Tags: the account's own labels on its links, for every surface (REST A and B, the MCP tools add_link_tag and
 * remove_link_tag). A tag is kept as written; "Sale" and "sale" are one tag on a link.
 */
export class TagsService {
  constructor(
    private readonly repo: TagsRepository,
    private readonly links: LinksRepository,
    private readonly clock: Clock,
  ) {}

  /** Tags the caller's link; a tag the link already has (in any case) changes nothing. Answers the link's tags. */
  async add(caller: Caller, shortPath: string, tag: unknown): Promise<LinkTags> {
    const checked = checkTag(tag);
    const link = await this.ownLink(caller, shortPath);
    const tags = await this.repo.onLink(link.id, async (repo) => {
      const current = await repo.ofLinks([link.id]);
      if (current.some((t) => t.tag_key === checked.key)) return current;
      if (current.length >= MAX_TAGS_PER_LINK) throw tagErrors.tooMany();
      const row = { link_id: link.id, account_id: caller.accountId, tag: checked.tag, tag_key: checked.key, created_at: this.clock.now().toISOString() };
      await repo.insert(row);
      return [...current, row];
    });
    if (!tags) throw errors.linkNotFound();
    return { tags: sorted(tags) };
  }

  /**
   * The tags other shorteners gave imported links, made into Snip tags: characters a tag cannot hold become hyphens,
   * long ones are cut, and a link keeps at most MAX_TAGS_PER_LINK of them, so a tag is changed rather than lost.
   */
  async tagImported(accountId: string, links: readonly { linkId: string; tags: readonly string[] }[]): Promise<void> {
    const now = this.clock.now().toISOString();
    const rows = links.flatMap(({ linkId, tags }) => {
      const seen = new Set<string>();
      const out = [];
      for (const raw of tags) {
        const tag = importedTag(raw);
        if (tag === null || seen.has(tag.key) || seen.size >= MAX_TAGS_PER_LINK) continue;
        seen.add(tag.key);
        out.push({ link_id: linkId, account_id: accountId, tag: tag.tag, tag_key: tag.key, created_at: now });
      }
      return out;
    });
    await this.repo.insertMany(rows);
  }

  /** Takes the tag (in any case) off the caller's link; TAG_NOT_FOUND when the link does not carry it. */
  async remove(caller: Caller, shortPath: string, tag: unknown): Promise<LinkTags> {
    const checked = checkTag(tag);
    const link = await this.ownLink(caller, shortPath);
    if (!(await this.repo.delete(link.id, checked.key))) throw tagErrors.notFound();
    return { tags: sorted(await this.repo.ofLinks([link.id])) };
  }

  /** The account's tags in display order, each with the number of its links carrying it. */
  async list(caller: Caller): Promise<{ tags: TagCount[] }> {
    // One entry per key: the spelling most of its links use names it (ties: the first in code-unit order).
    const byKey = new Map<string, { key: string; tag: string; best: number; linkCount: number }>();
    for (const row of await this.repo.counts(caller.accountId)) {
      const count = Number(row.link_count);
      const entry = byKey.get(row.tag_key);
      if (!entry) {
        byKey.set(row.tag_key, { key: row.tag_key, tag: row.tag, best: count, linkCount: count });
        continue;
      }
      entry.linkCount += count;
      if (count > entry.best || (count === entry.best && row.tag < entry.tag)) Object.assign(entry, { tag: row.tag, best: count });
    }
    return { tags: [...byKey.values()].sort(byTag).map(({ tag, linkCount }) => ({ tag, linkCount })) };
  }

  /**
   * Renames one of the account's tags (in any case) on every link carrying it; the new name is held to the tag rule
   * and may respell the same tag ("sale" to "Sale"), but not be another tag the account already uses (TAG_EXISTS).
   * Answers the tag under its new name and its number of links.
   */
  async rename(caller: Caller, tag: unknown, name: unknown): Promise<TagCount> {
    const from = checkTag(tag);
    const to = checkName(name);
    try {
      return await this.repo.exclusive(caller.accountId, async (repo) => {
        const linkCount = await repo.linkCount(caller.accountId, from.key);
        if (linkCount === 0) throw tagErrors.unknown(from.tag);
        if (to.key !== from.key && (await repo.linkCount(caller.accountId, to.key)) > 0) throw tagErrors.exists(to.tag);
        await repo.retag(caller.accountId, from.key, to);
        return { tag: to.tag, linkCount };
      });
    } catch (error) {
      // A link tagged with the new name while the rename ran: the name is taken after all.
      if (isUniqueViolation(error)) throw tagErrors.exists(to.tag);
      throw error;
    }
  }

  /** Takes one of the account's tags (in any case) off every link carrying it; the links stay. Answers how many. */
  async delete(caller: Caller, tag: unknown): Promise<TagCount> {
    const checked = checkTag(tag);
    const linkCount = await this.repo.deleteKey(caller.accountId, checked.key);
    if (linkCount === 0) throw tagErrors.unknown(checked.tag);
    return { tag: checked.tag, linkCount };
  }

  /** The tags of each of these links, in display order; links without tags are absent from the map. */
  async tagsOf(linkIds: readonly string[]): Promise<Map<string, string[]>> {
    if (linkIds.length === 0) return new Map();
    const grouped = new Map<string, { tag: string; tag_key: string }[]>();
    for (const row of await this.repo.ofLinks(linkIds)) {
      const list = grouped.get(row.link_id);
      if (list) list.push(row);
      else grouped.set(row.link_id, [row]);
    }
    return new Map([...grouped].map(([id, rows]) => [id, sorted(rows)]));
  }

  /** The caller's link: someone else's is 403 ACCESS_DENIED, as on the link routes; an unknown one 404 NOT_FOUND. */
  private async ownLink(caller: Caller, shortPath: string): Promise<LinkRow> {
    const link = await this.links.find(parseShortPath(shortPath));
    if (!link) throw errors.linkNotFound();
    if (link.account_id !== caller.accountId) throw errors.accessDenied();
    return link;
  }
}

/** A tag's new name: the tag rule, refused under the `name` field's codes. */
function checkName(name: unknown): CheckedTag {
  try {
    return checkTag(name);
  } catch (error) {
    if (error instanceof AppError && error.code === 'MISSING_TAG') throw errors.missingName();
    if (error instanceof AppError) throw tagErrors.invalidName();
    throw error;
  }
}

const sorted = (rows: { tag: string; tag_key: string }[]): string[] =>
  rows
    .map((r) => ({ tag: r.tag, key: r.tag_key }))
    .sort(byTag)
    .map((r) => r.tag);
