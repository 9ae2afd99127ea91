import { catalogue, statusOf, type CatalogueCode, type ErrorCode, type MessageArgs } from './errors/catalogue.js';

export { catalogue, httpCodes, isCatalogueCode, isErrorCode, statusOf } from './errors/catalogue.js';
export type { CatalogueCode, ErrorCode, FieldCode } from './errors/catalogue.js';

type Headers = Record<string, string>;

/**
 * The one error type of Snip. Services throw it; each surface (REST A, REST B, MCP, CLI) maps it to its own
 * body at the edge. `code` is one of the catalogue's (src/errors/catalogue.ts), which also gives the status;
 * `message` is for people.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Headers the answer must carry (Retry-After and the rate-limit headers of a 429). */
  readonly headers: Headers;

  constructor(code: ErrorCode, message: string, headers: Headers = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = statusOf(code);
    this.headers = headers;
  }

  /** The same error carrying the headers its answer needs. */
  withHeaders(headers: Headers): AppError {
    return new AppError(this.code, this.message, { ...this.headers, ...headers });
  }
}

/** The error of a catalogue code with its default sentence: `appError('EMAIL_TAKEN', email)`. */
export function appError<C extends CatalogueCode>(code: C, ...args: MessageArgs<C>): AppError {
  const message = (catalogue[code].message as (...a: MessageArgs<C>) => string)(...args);
  return new AppError(code, message);
}

/** `SLUG_TAKEN` → `slugTaken`. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Lowercase<Head>}${Pascal<Tail>}` : Lowercase<S>;
type Pascal<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Capitalize<Lowercase<Head>>}${Pascal<Tail>}` : Capitalize<Lowercase<S>>;

const camel = (code: string) => code.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

type Helpers = { [C in CatalogueCode as Camel<C>]: (...args: MessageArgs<C>) => AppError };

const helpers = Object.fromEntries(
  (Object.keys(catalogue) as CatalogueCode[]).map((code) => [camel(code), (...args: never[]) => appError(code, ...(args as MessageArgs<typeof code>))]),
) as Helpers;

const TIER_CODES = ['TIER_REQUIRED', 'TIER_UPGRADE_REQUIRED'] as const;
type TierCode = (typeof TIER_CODES)[number];
const isTierCode = (code: string): code is TierCode => (TIER_CODES as readonly string[]).includes(code);

/**
 * One function per catalogue code, named after it (`errors.slugTaken()`, `errors.emailTaken(email)`), plus the
 * names older call sites use.
 */
export const errors = {
  ...helpers,
  linkNotFound: helpers.notFound,
  /** The 403 for a plan below a route's; a route family may answer it under its own code (TIER_UPGRADE_REQUIRED). */
  tierRequired: (needed: string, code: string = 'TIER_REQUIRED') => {
    if (!isTierCode(code)) throw new Error(`${code} is not a tier code: use one of ${TIER_CODES.join(', ')}`);
    return appError(code, needed);
  },
};

/** An update naming nothing to change is refused, whichever surface sent it (REST, MCP). */
export function requireChange(input: object): void {
  if (Object.values(input).every((v) => v === undefined)) throw errors.invalidBody();
}

