import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { expectError } from './api-errors.js';
import type { TestApp, TestUser } from './app.js';

/** The link routes of each description. */
export const LINKS_A = '/api/v1/links';
export const LINKS_B = '/api/links';

/** Who calls: an account, a raw API key, or nobody (no Authorization header). */
export type Caller = TestUser | string | null;

/** One link as Description A shows it: the details and each entry of the list (2.4). */
export interface LinkA {
  id: string;
  shortUrl: string;
  shortCode: string;
  fullPath: string | null;
  namespace: string | null;
  long: string;
  clicks: number;
  created: string;
  expiresAt: string | null;
  maxClicks: number | null;
  isCustom: boolean;
  blockedCountries: string[];
  /** The folder the link is filed in; null when none. */
  folderId: string | null;
  domain: string | null;
  /** The link's tags as written, sorted ignoring case. */
  tags: string[];
}

/** What POST /api/v1/links answers (2.3): the details without id, clicks and isCustom, and `success`. */
export interface CreatedLinkA extends Omit<LinkA, 'id' | 'clicks' | 'isCustom' | 'blockedCountries' | 'folderId' | 'domain' | 'tags'> {
  success: boolean;
}

/**
 * One link as Description B shows it, on create, details, update and in the list: Description A's fields (but
 * `shortUrl` is the short path, and `url` the full short URL), with `updated` and `activeFrom`.
 */
export interface LinkB extends LinkA {
  url: string;
  updated: string;
  activeFrom: string | null;
}

export interface Pagination {
  limit: number;
  offset: number;
  hasMore: boolean;
}

/** A page of GET /api/v1/links or GET /api/links. */
export interface LinkPage<Link> {
  links: Link[];
  pagination: Pagination;
}

/** A request body and the code of the 400 it is refused with. */
export type RefusedBody = [Record<string, unknown>, string];

/**
 * Bodies that creating a link refuses, on either description's create route: both apply one set of rules to the
 * fields they share (`url`, `customSlug`, `maxClicks`, `expiresAt`, `activeFrom`).
 */
export const REFUSED_NEW_LINKS: RefusedBody[] = [
  [{}, 'MISSING_URL'],
  [{ url: '' }, 'MISSING_URL'],
  [{ url: 'not a url' }, 'INVALID_URL'],
  [{ url: 'javascript:alert(1)' }, 'INVALID_URL'],
  [{ url: 'data:text/html,hi' }, 'INVALID_URL'],
  [{ url: 'file:///etc/passwd' }, 'INVALID_URL'],
  [{ url: 'ftp://example.com/f' }, 'INVALID_URL'],
  [{ url: 'http://snip.test/abcdef' }, 'INVALID_URL'],
  [{ url: 'http://SNIP.test./abcdef' }, 'INVALID_URL'],
  [{ url: `https://example.com/${'a'.repeat(5000)}` }, 'INVALID_URL'],
  [{ url: 'https://example.com', customSlug: 'ab' }, 'INVALID_SLUG'],
  [{ url: 'https://example.com', customSlug: 'has space' }, 'INVALID_SLUG'],
  [{ url: 'https://example.com', customSlug: 'bad_slug!' }, 'INVALID_SLUG'],
  [{ url: 'https://example.com', customSlug: 'x'.repeat(51) }, 'INVALID_SLUG'],
  [{ url: 'https://example.com', maxClicks: 0 }, 'INVALID_MAX_CLICKS'],
  [{ url: 'https://example.com', maxClicks: 1.5 }, 'INVALID_MAX_CLICKS'],
  [{ url: 'https://example.com', expiresAt: 'tomorrow' }, 'INVALID_EXPIRES_AT'],
  [{ url: 'https://example.com', expiresAt: 'next week' }, 'INVALID_EXPIRES_AT'],
  [{ url: 'https://example.com', expiresAt: '2020-01-01T00:00:00Z' }, 'EXPIRES_AT_IN_PAST'],
  [{ url: 'https://example.com', activeFrom: '2020-01-01T00:00:00Z' }, 'ACTIVE_FROM_IN_PAST'],
  [{ url: 'https://example.com', activeFrom: '2099-01-02T00:00:00Z', expiresAt: '2099-01-01T00:00:00Z' }, 'EXPIRES_BEFORE_ACTIVE'],
];

/** Changes that updating a link refuses, on either description's PATCH route (the same rules as on create). */
export const REFUSED_CHANGES: RefusedBody[] = [
  [{ url: '' }, 'MISSING_URL'],
  [{ url: 'not a url' }, 'INVALID_URL'],
  [{ url: 'nope' }, 'INVALID_URL'],
  [{ url: 'javascript:alert(1)' }, 'INVALID_URL'],
  [{ url: 'data:text/html,hi' }, 'INVALID_URL'],
  [{ url: 'http://snip.test/abcdef' }, 'INVALID_URL'],
  [{ maxClicks: 0 }, 'INVALID_MAX_CLICKS'],
  [{ maxClicks: -3 }, 'INVALID_MAX_CLICKS'],
  [{ maxClicks: 1.5 }, 'INVALID_MAX_CLICKS'],
  [{ expiresAt: 'tomorrow' }, 'INVALID_EXPIRES_AT'],
  [{ expiresAt: 'later' }, 'INVALID_EXPIRES_AT'],
  [{ expiresAt: '2020-01-01T00:00:00Z' }, 'EXPIRES_AT_IN_PAST'],
  [{ activeFrom: 'soon' }, 'INVALID_ACTIVE_FROM'],
  [{ activeFrom: '2020-01-01T00:00:00Z' }, 'ACTIVE_FROM_IN_PAST'],
  [{ activeFrom: '2099-01-02T00:00:00Z', expiresAt: '2099-01-01T00:00:00Z' }, 'EXPIRES_BEFORE_ACTIVE'],
];

/** Requests on one description's link routes (`base`), answering `Created` on create and `Link` in lists. */
export interface LinkApi<Created, Link> {
  /** POST `base` as it is, for the tests that look at refusals. */
  post(user: Caller, body: object): Promise<LightMyRequestResponse>;
  /** POST `base`, asserting 201. */
  create(user: TestUser, body: Record<string, unknown>): Promise<Created>;
  list(user: Caller, query?: string): Promise<LightMyRequestResponse>;
  /** GET `base` + `query`, asserting 200. */
  page(user: TestUser, query?: string): Promise<LinkPage<Link>>;
  /** Every link of the caller (up to 100), asserting 200. */
  listAll(user: TestUser): Promise<Link[]>;
  get(user: Caller, shortPath: string): Promise<LightMyRequestResponse>;
  patch(user: Caller, shortPath: string, body: object): Promise<LightMyRequestResponse>;
  del(user: Caller, shortPath: string): Promise<LightMyRequestResponse>;
  /** An anonymous GET of the short path, as a visitor follows a link. */
  visit(shortPath: string): Promise<LightMyRequestResponse>;
  /** The test clock's now plus `ms`, as an ISO string. */
  inFuture(ms: number): string;
}

export function linkApi<Created, Link>(t: TestApp, base: string): LinkApi<Created, Link> {
  const one = (shortPath: string) => `${base}/${encodeURIComponent(shortPath)}`;
  const post = (user: Caller, body: object) => t.as(user, { method: 'POST', url: base, payload: body });
  const list = (user: Caller, query = '') => t.as(user, { method: 'GET', url: `${base}${query}` });
  const page = async (user: TestUser, query = ''): Promise<LinkPage<Link>> => {
    const res = await list(user, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LinkPage<Link>>();
  };
  return {
    post,
    async create(user, body) {
      const res = await post(user, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<Created>();
    },
    list,
    page,
    listAll: async (user) => (await page(user, '?limit=100')).links,
    get: (user, shortPath) => t.as(user, { method: 'GET', url: one(shortPath) }),
    patch: (user, shortPath, body) => t.as(user, { method: 'PATCH', url: one(shortPath), payload: body }),
    del: (user, shortPath) => t.as(user, { method: 'DELETE', url: one(shortPath) }),
    visit: (shortPath) => t.app.inject({ method: 'GET', url: `/${shortPath}` }),
    inFuture: (ms) => new Date(t.clock.now().getTime() + ms).toISOString(),
  };
}

/** Asserts that `attempt` is refused with `status` and `code`, and that `user` has as many links after it as before. */
export async function expectRefusedToCreate<Link>(
  api: LinkApi<unknown, Link>,
  user: TestUser,
  attempt: () => Promise<LightMyRequestResponse>,
  status: number,
  code: string,
): Promise<void> {
  const before = (await api.listAll(user)).length;
  expectError(await attempt(), status, code);
  expect((await api.listAll(user)).length).toBe(before);
}
