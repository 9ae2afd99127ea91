/**
 * Snip's typed client: openapi-fetch over the types openapi-typescript generates from /openapi.yaml
 * (schema.d.ts, error-codes.ts: `npm run client`), and this thin layer: where Snip is, the key or the dashboard's
 * session, refusals thrown as `ApiError` with a typed code, and lists walked page by page.
 *
 *   const snip = createSnipClient({ baseUrl: 'https://snip.example', apiKey: 'snip_...' });
 *   const link = await snip.post('/api/v1/links', { body: { url: 'https://example.com' } });
 *   for await (const l of snip.each('/api/links', (page) => page.links)) console.log(l.url);
 */
import createClient, { type Middleware } from 'openapi-fetch';
import { ApiError, apiErrorOf } from './errors.js';
import { paginate } from './pagination.js';
import type { paths } from './schema.js';
import type { Answer, Api, Call, EachOptions, PagedPath, PathParams } from './types.js';

export { ERROR_CODES, type ErrorCode } from './error-codes.js';
export { ApiError, apiErrorOf, isApiError, isErrorCode, type ApiErrorCode, type ClientErrorCode } from './errors.js';
export { hasMoreAfter, MAX_PAGE_SIZE, paginate, type PageWindow } from './pagination.js';
export type { paths } from './schema.js';
export type { Answer, Body, Init, Method, PagedPath, PathOf, PathParams, Query } from './types.js';

export interface SnipClientOptions {
  /** Where Snip answers, such as `https://snip.example`; empty (the default) for the page's own origin, as the dashboard. */
  baseUrl?: string;
  /** An API key (`snip_...`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** The dashboard's session: its CSRF token, read before each state-changing call and sent as X-CSRF-Token. */
  csrfToken?: () => string | null | undefined;
  /** Called with the documented path (`/api/links/{shortPath}`) of a call answered 401: the key or the session is gone. */
  onUnauthorized?: (path: string) => void;
  /** Whether the browser sends its cookies (the session): `same-origin` by default. */
  credentials?: RequestCredentials;
  /** Another fetch (tests, a proxy agent); globalThis.fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
}

type Reply = { data?: unknown; error?: unknown; response: Response };
type LooseRequest = (method: string, path: string, init?: object) => Promise<Reply>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SnipClient {
  /** Each call resolves with the answer's data, typed by path and method, and throws `ApiError` for any refusal. */
  get: Call<'get'>;
  post: Call<'post'>;
  put: Call<'put'>;
  patch: Call<'patch'>;
  delete: Call<'delete'>;
  /**
   * Every item of a paginated list (`limit`/`offset`), one request per page as the loop consumes them:
   * `for await (const link of snip.each('/api/v1/links', (page) => page.links, { query: { tag: 'launch' } }))`.
   */
  each<P extends PagedPath, Item>(
    path: P,
    items: (page: Answer<P, 'get'>) => readonly Item[],
    ...options: [PathParams<P, 'get'>] extends [never] ? [options?: EachOptions<P>] : [options: EachOptions<P>]
  ): AsyncGenerator<Item, void, undefined>;
  /** openapi-fetch's own client (answers `{ data, error, response }`, throws nothing), for what the layer above hides. */
  raw: Api;
}

export function createSnipClient(options: SnipClientOptions = {}): SnipClient {
  const raw = createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    credentials: options.credentials ?? 'same-origin',
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const session: Middleware = {
    onRequest({ request }) {
      const token = SAFE_METHODS.has(request.method) ? null : options.csrfToken?.();
      if (token) request.headers.set('x-csrf-token', token);
      return request;
    },
    onResponse({ response, schemaPath }) {
      if (response.status === 401) options.onUnauthorized?.(schemaPath);
    },
    // Only a fetch that got no answer lands here; an abort stays an AbortError, for the caller that asked for it.
    onError({ error }) {
      if (error instanceof Error && error.name === 'AbortError') return error;
      return new ApiError(0, 'NETWORK_ERROR', 'Snip could not be reached. Check the connection and try again.', null);
    },
  };
  raw.use(session);

  const request = raw.request as unknown as LooseRequest;
  const call = (method: string) => async (path: string, init?: object) => {
    const { data, error, response } = await request(method, path, init);
    if (!response.ok) throw apiErrorOf(response.status, error, response.statusText);
    return data;
  };

  return {
    get: call('get') as Call<'get'>,
    post: call('post') as Call<'post'>,
    put: call('put') as Call<'put'>,
    patch: call('patch') as Call<'patch'>,
    delete: call('delete') as Call<'delete'>,
    each(path, items, ...[options]) {
      const { query, path: pathParams, pageSize, offset, signal } = (options ?? {}) as { query?: object; path?: object; pageSize?: number; offset?: number; signal?: AbortSignal };
      const get = call('get');
      return paginate(
        async (window) => {
          const answer = (await get(path, { params: { path: pathParams, query: { ...query, ...window } }, signal })) as Answer<typeof path, 'get'>;
          return { items: items(answer), answer };
        },
        { pageSize, offset },
      );
    },
    raw,
  };
}
