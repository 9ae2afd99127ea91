import { describe, expect, it } from 'vitest';
import { apiErrorOf, ERROR_CODES, isErrorCode, paginate, type PageWindow } from '../../client/index.js';
import { httpCodes } from '../../src/errors.js';

/** A list of `total` numbers served by limit/offset, answering in the shape `shape` (as Snip's lists do). */
function list(total: number, shape: 'pagination' | 'flat' | 'none') {
  const windows: PageWindow[] = [];
  const fetchPage = async (window: PageWindow) => {
    windows.push(window);
    const items = Array.from({ length: Math.max(0, Math.min(window.limit, total - window.offset)) }, (_, i) => window.offset + i);
    const hasMore = window.offset + items.length < total;
    const answer = shape === 'pagination' ? { items, pagination: { hasMore } } : shape === 'flat' ? { items, hasMore } : { items };
    return { items, answer };
  };
  return { windows, fetchPage };
}

describe('paginate', () => {
  it.each(['pagination', 'flat', 'none'] as const)('reads every item of a list that answers %s, one page at a time', async (shape) => {
    const { windows, fetchPage } = list(7, shape);
    const seen: number[] = [];
    for await (const n of paginate(fetchPage, { pageSize: 3 })) seen.push(n);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(windows).toEqual([
      { limit: 3, offset: 0 },
      { limit: 3, offset: 3 },
      { limit: 3, offset: 6 },
    ]);
  });

  it('trusts hasMore over a full page, and asks for no page the loop does not reach', async () => {
    const six = list(6, 'pagination');
    for await (const _ of paginate(six.fetchPage, { pageSize: 3 })) void _;
    expect(six.windows).toHaveLength(2);
    // Without a flag a full last page costs one more (empty) request.
    const bare = list(6, 'none');
    for await (const _ of paginate(bare.fetchPage, { pageSize: 3 })) void _;
    expect(bare.windows).toHaveLength(3);
    const lazy = list(1000, 'pagination');
    for await (const n of paginate(lazy.fetchPage, { pageSize: 10 })) if (n === 4) break;
    expect(lazy.windows).toHaveLength(1);
  });

  it('keeps the page size within what Snip serves, and starts where asked', async () => {
    const { windows, fetchPage } = list(3, 'pagination');
    for await (const _ of paginate(fetchPage, { pageSize: 500, offset: 1 })) void _;
    expect(windows).toEqual([{ limit: 100, offset: 1 }]);
  });
});

describe('ApiError from an answer', () => {
  it("reads A's error body and B's rate-limit body", () => {
    expect(apiErrorOf(400, { error: true, message: 'Invalid URL: no host', code: 'INVALID_URL' })).toMatchObject({ status: 400, code: 'INVALID_URL', message: 'Invalid URL: no host' });
    expect(apiErrorOf(429, { error: 'Rate limit exceeded', code: 'RATE_LIMITED' })).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'Rate limit exceeded' });
  });

  it('calls an answer that is not a Snip error UNEXPECTED_RESPONSE, keeping it as sent', () => {
    const error = apiErrorOf(502, '<html>Bad gateway</html>', 'Bad Gateway');
    expect(error).toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE', message: 'Snip answered 502 Bad Gateway', body: '<html>Bad gateway</html>' });
  });

  it("lists every code of the HTTP catalogue, and the field codes of the operations' schemas", () => {
    for (const code of httpCodes()) expect(isErrorCode(code), code).toBe(true);
    expect(ERROR_CODES).toContain('MISSING_URL');
    expect(isErrorCode('NETWORK_ERROR')).toBe(false);
  });
});
