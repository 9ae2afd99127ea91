import type { Client, ClientPathsWithMethod, FetchOptions, MaybeOptionalInit, MethodResponse } from 'openapi-fetch';
import type { paths } from './schema.js';

/**
 * Types of Snip's API read by path and method (`Answer<'/api/links', 'get'>`), never by a component's name: the
 * document's shared schemas may be renamed, its paths are the API's contract.
 */

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
export type Api = Client<paths>;
export type PathOf<M extends Method> = ClientPathsWithMethod<Api, M>;

type Operation<P extends keyof paths, M extends Method> = paths[P][M];

/** The JSON a successful call answers. */
export type Answer<P extends PathOf<M>, M extends Method> = MethodResponse<Api, M, P>;

/** The JSON body a call takes. */
export type Body<P extends PathOf<M>, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query a call takes. */
export type Query<P extends PathOf<M>, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The path parameters a call takes. */
export type PathParams<P extends PathOf<M>, M extends Method> = Operation<P, M> extends { parameters: { path?: infer A } } ? NonNullable<A> : never;

/** The options of a call to `path`, as openapi-fetch takes them (params, body, parseAs, signal, headers ...). */
export type Init<P extends PathOf<M>, M extends Method> = MaybeOptionalInit<paths[P], M>;

// openapi-fetch's own rule (its InitParam): the options argument is required when the call has required parameters.
type RequiredKeysOfHelper<T> = { [K in keyof T]: object extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;
export type InitArgs<I> = RequiredKeysOf<I> extends never ? [init?: I & { [key: string]: unknown }] : [init: I & { [key: string]: unknown }];

/** A call that resolves with the answer's data and throws `ApiError` for any refusal. */
export type Call<M extends Method> = <P extends PathOf<M>, I extends Init<P, M>>(path: P, ...init: InitArgs<I>) => Promise<MethodResponse<Api, M, P, I>>;

/** GET paths that page by `limit` and `offset`. */
export type PagedPath = {
  [P in PathOf<'get'>]: [Query<P, 'get'>] extends [never] ? never : Query<P, 'get'> extends { limit?: number; offset?: number } ? ('offset' extends keyof Query<P, 'get'> ? P : never) : never;
}[PathOf<'get'>];

/** What `each` takes besides the path: the list's filters, its path parameters and the page size. */
export type EachOptions<P extends PagedPath> = {
  query?: Omit<Query<P, 'get'>, 'limit' | 'offset'>;
  /** Items per request, 1-100 (default 100). */
  pageSize?: number;
  /** Where to start (default 0). */
  offset?: number;
  signal?: AbortSignal;
} & ([PathParams<P, 'get'>] extends [never] ? { path?: never } : { path: PathParams<P, 'get'> });

export type { FetchOptions };
