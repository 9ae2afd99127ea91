/**
 * Snip's lists page by `limit` (1-100, default 20) and `offset`, in both dialects. An answer says whether more
 * follow in one of two ways: `pagination.hasMore` (links, agent links) or `hasMore` (affiliate programs); a list
 * that says neither (webhook deliveries) has more while a page comes back full.
 */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** The largest page Snip serves. */
export const MAX_PAGE_SIZE = 100;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Whether more items follow the page `answer`, read from the answer's own flag, else from a full page. */
export function hasMoreAfter(answer: unknown, received: number, limit: number): boolean {
  if (isRecord(answer)) {
    if (isRecord(answer.pagination) && typeof answer.pagination.hasMore === 'boolean') return answer.pagination.hasMore;
    if (typeof answer.hasMore === 'boolean') return answer.hasMore;
  }
  return received >= limit;
}

/**
 * Every item of a paginated list, fetching the next page only when the loop asks for more: `for await (const link
 * of paginate(...))`. `fetchPage` answers one page's items and the answer they came in (to read its hasMore).
 * Items added or deleted while paging can shift offsets: a link may be seen twice or missed, as with any offset list.
 */
export async function* paginate<Item>(
  fetchPage: (window: PageWindow) => Promise<{ items: readonly Item[]; answer: unknown }>,
  options: { pageSize?: number; offset?: number } = {},
): AsyncGenerator<Item, void, undefined> {
  const limit = Math.min(Math.max(1, Math.floor(options.pageSize ?? MAX_PAGE_SIZE)), MAX_PAGE_SIZE);
  let offset = Math.max(0, Math.floor(options.offset ?? 0));
  for (;;) {
    const { items, answer } = await fetchPage({ limit, offset });
    yield* items;
    if (items.length === 0 || !hasMoreAfter(answer, items.length, limit)) return;
    offset += items.length;
  }
}
