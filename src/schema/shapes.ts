import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { named } from './names.js';

/** OpenAPI 3.0 spells "may be null" as `nullable: true`; Ajv and the serializer both honour it. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });

/**
 * One of a few strings, as one `enum`: a union of constants would be an `anyOf`, which generated clients and some
 * model providers' tool dialects read poorly. Ajv's error for it names the values allowed, as the union's did.
 */
export const StringEnum = <const T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

export const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });

/** Description A's error body, which every surface of Snip answers with (but B's 429, below). */
export const ErrorBody = named(
  'ErrorA',
  'Error',
  Type.Object({
    error: Type.Boolean({ description: 'Always true' }),
    message: Type.String({ description: 'Human readable' }),
    code: Type.String({ description: 'Machine readable, stable: one of the codes the operation lists in x-error-codes' }),
  }),
);

/** Description B's rate-limit body. */
export const RateLimitBodyB = named(
  'RateLimitErrorB',
  'Rate limit exceeded (see Retry-After and X-RateLimit-* headers)',
  Type.Object({ error: Type.String({ description: 'Human readable' }), code: Type.String({ description: 'RATE_LIMITED' }) }),
);

export const errorResponses = (...statuses: number[]): Record<number, typeof ErrorBody> =>
  Object.fromEntries(statuses.map((status) => [status, ErrorBody]));

export const SuccessMessage = named('SuccessMessage', 'Done', Type.Object({ success: Type.Boolean(), message: Type.String() }));

/**
 * The largest whole number Snip takes from a client: PostgreSQL's `integer` (the type of every count and cap column,
 * src/db/migrations) holds no more, and SQLite and both databases' OFFSET hold at least this. Every integer a query,
 * path or body schema accepts is capped at it (or less), so a huge number, 1e20 or Infinity is a 400, not a 500.
 */
export const MAX_INTEGER = 2_147_483_647;

export const Pagination = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  offset: Type.Integer({ minimum: 0, maximum: MAX_INTEGER, default: 0 }),
});
