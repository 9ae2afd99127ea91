/**
 * Every error code Snip answers with, its one HTTP status and its default sentence. The set is closed:
 * `AppError` only takes a code from here (or one of the field codes below), so the OpenAPI can list what each
 * operation may answer and a code cannot mean 403 in one place and 404 in another.
 *
 * A message is a function so a code's sentence is written once even when it names a value (`emailTaken(email)`).
 * `scope: 'cli'` marks the codes only the operator CLI answers (its arguments and files, creating accounts), and
 * `scope: 'mcp'` the ones only MCP tool calls answer (a tool it does not have); REST routes never answer either.
 * `scope: 'router'` marks the codes the HTTP router answers to a request no operation serves (a method a path does not
 * serve), so no operation lists them. `scope: 'outcome'` marks the codes an import reports inside its 200 answer (a row's
 * outcome, or the source's failure part-way: src/imports), never as an answer's status.
 *
 * Field codes: a schema failure is `INVALID_<FIELD>` or `MISSING_<FIELD>` (400) for whichever top-level field the
 * input names (src/schema/messages.ts). They are one pattern entry rather than one entry per field:
 * `validationCodes(schema)` lists the concrete codes a given schema can produce, and the codes a service also
 * throws itself (INVALID_URL, MISSING_NAME, …) are entries here with their own sentence.
 */

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface Entry {
  status: number;
  message: (...args: never[]) => string;
  scope?: 'cli' | 'mcp' | 'router' | 'outcome';
}

export const catalogue = {
  // 400: the input as a whole
  INVALID_BODY: { status: 400, message: (detail = 'Give at least one field to change') => detail },
  INVALID_JSON: { status: 400, message: () => 'The body is not valid JSON' },
  BAD_REQUEST: { status: 400, message: (detail = 'The request could not be understood') => detail },

  // 400: links
  MISSING_URL: { status: 400, message: () => 'URL is required' },
  INVALID_URL: { status: 400, message: (why: string) => `Invalid URL: ${why}` },
  MISSING_URLS: { status: 400, message: () => 'urls is required: an array of 1 or more links' },
  INVALID_URLS: { status: 400, message: () => 'urls must be an array' },
  TOO_MANY_URLS: { status: 400, message: (max: number) => `At most ${max} links per request` },
  INVALID_ITEM: { status: 400, message: () => 'Each item must be an object with a url' },
  INVALID_BASE64: { status: 400, message: (why = 'must be the destination URL encoded as Base64') => `long ${why}` },
  INVALID_SLUG: { status: 400, message: (why = 'A custom slug is 3-50 characters: letters, digits and hyphens') => why },
  INVALID_BLOCKED_COUNTRIES: { status: 400, message: () => 'blockedCountries must be a list of two-letter ISO 3166-1 country codes' },
  INVALID_MAX_CLICKS: { status: 400, message: () => 'maxClicks must be an integer of at least 1' },
  INVALID_EXPIRES_AT: { status: 400, message: () => 'expiresAt must be an ISO 8601 date-time' },
  INVALID_ACTIVE_FROM: { status: 400, message: () => 'activeFrom must be an ISO 8601 date-time' },
  EXPIRES_AT_IN_PAST: { status: 400, message: () => 'expiresAt must be in the future' },
  ACTIVE_FROM_IN_PAST: { status: 400, message: () => 'activeFrom must not be in the past' },
  EXPIRES_BEFORE_ACTIVE: { status: 400, message: () => 'expiresAt must be later than activeFrom' },
  NAMESPACE_REQUIRED: { status: 400, message: () => 'Claim a namespace before creating custom slugs' },
  MISSING_CLICK_ID: { status: 400, message: () => 'clickId is required: the snip_cid the partner link added to the destination' },
  INVALID_CLICK_ID: { status: 400, message: () => 'clickId must be the snip_cid value the partner link added to the destination' },
  INVALID_APP_LINKS: { status: 400, message: (why: string) => `Invalid appLinks: ${why}` },
  INVALID_UTM_TEMPLATE_ID: { status: 400, message: () => 'utmTemplateId must be the id of one of your UTM templates' },

  // 400: accounts and namespaces
  INVALID_TIER: { status: 400, scope: 'cli', message: (tiers: readonly string[]) => `Tier must be one of ${tiers.join(', ')}` },
  INVALID_EMAIL: { status: 400, message: () => 'Not a valid email address' },
  INVALID_PASSWORD: { status: 400, message: (min: number, max: number) => `A password is ${min} to ${max} characters long` },
  WRONG_PASSWORD: { status: 400, message: () => 'The current password is not right' },
  INVALID_NAMESPACE: {
    status: 400,
    message: () => 'A namespace is 3-30 characters: letters, digits and hyphens, starting and ending with a letter or digit',
  },
  RESERVED_NAMESPACE: { status: 400, message: (prefix: string) => `The namespace "${prefix}" is reserved` },
  NAMESPACE_IN_USE: {
    status: 400,
    message: (prefix: string) => `"${prefix}" is your current namespace; claim another one before releasing it`,
  },

  // 400: folders, tags, views, UTM templates
  MISSING_NAME: { status: 400, message: () => 'name is required' },
  INVALID_NAME: { status: 400, message: (max: number) => `name must be 1-${max} characters on one line` },
  INVALID_COLOR: { status: 400, message: (rule = 'must be a hex code #RRGGBB') => `color ${rule}` },
  INVALID_BG_COLOR: { status: 400, message: (rule = "must be exactly 6 hex digits without '#', such as 1A2B3C") => `bgColor ${rule}` },
  MISSING_FOLDER_ID: { status: 400, message: () => 'folderId is required: a folder id, or null for none' },
  INVALID_FOLDER_ID: { status: 400, message: () => 'folderId must be a folder id or null' },
  MISSING_TAG: { status: 400, message: () => 'tag is required' },
  INVALID_TAG: { status: 400, message: (max: number) => `A tag is 1-${max} characters: letters, digits, spaces, hyphens and underscores` },
  TOO_MANY_TAGS: { status: 400, message: (max: number) => `A link carries at most ${max} tags; remove one first` },
  MISSING_FILTERS: { status: 400, message: () => 'filters is required: an object, {} for every link' },
  INVALID_FILTERS: { status: 400, message: (why: string) => `Invalid filters: ${why}` },
  INVALID_SEARCH: { status: 400, message: (max: number) => `search is at most ${max} characters` },
  MISSING_UTM_FIELDS: { status: 400, message: () => 'Set at least one of utmSource, utmMedium, utmCampaign, utmTerm, utmContent' },
  INVALID_UTM_SOURCE: { status: 400, message: (max: number) => `utmSource must be 1-${max} characters on one line, or null` },
  INVALID_UTM_MEDIUM: { status: 400, message: (max: number) => `utmMedium must be 1-${max} characters on one line, or null` },
  INVALID_UTM_CAMPAIGN: { status: 400, message: (max: number) => `utmCampaign must be 1-${max} characters on one line, or null` },
  INVALID_UTM_TERM: { status: 400, message: (max: number) => `utmTerm must be 1-${max} characters on one line, or null` },
  INVALID_UTM_CONTENT: { status: 400, message: (max: number) => `utmContent must be 1-${max} characters on one line, or null` },

  // 400: QR codes
  INVALID_SIZE: { status: 400, message: (why: string) => why },
  INVALID_MARGIN: { status: 400, message: (min: number, max: number) => `margin must be a whole number of modules from ${min} to ${max}` },
  INVALID_ECC: { status: 400, message: (levels: readonly string[]) => `error correction must be one of ${levels.join(', ')}` },
  INVALID_ERROR_CORRECTION: { status: 400, message: (levels: readonly string[]) => `error correction must be one of ${levels.join(', ')}` },

  // 400: domains
  MISSING_DOMAIN: { status: 400, message: () => 'domain is required' },
  INVALID_DOMAIN: { status: 400, message: (why = 'a hostname such as links.example.com is expected') => `Invalid domain: ${why}` },
  RESERVED_DOMAIN: { status: 400, message: (why: string) => `This domain is reserved: ${why}` },
  DOMAIN_NOT_VERIFIED: { status: 400, message: () => 'Verify the TXT record before activating the domain' },
  DOMAIN_NOT_ACTIVE: { status: 400, message: (why = 'Activate the domain before creating links on it') => why },
  INVALID_SET_DEFAULT: { status: 400, message: () => 'setDefault must be true or false' },
  INVALID_NOT_FOUND_PAGE: { status: 400, message: (why: string) => `notFoundPage ${why}` },
  MISSING_REDIRECT_URL: { status: 400, message: () => 'notFoundPage.redirectUrl is required for type redirect' },
  MISSING_HTML: { status: 400, message: () => 'notFoundPage.html is required for type html' },
  HTML_TOO_LONG: { status: 400, message: (max: number) => `notFoundPage.html is limited to ${max.toLocaleString('en')} characters` },

  // 400: webhooks
  INVALID_EVENTS: { status: 400, message: (why: string) => why },
  INVALID_SECRET: { status: 400, message: () => 'secret must be 1-256 characters' },
  INVALID_ENABLED: { status: 400, message: () => 'enabled must be true or false' },
  DUPLICATE_WEBHOOK: { status: 400, message: () => 'A webhook with this URL and these events already exists' },

  // 400: analytics, usage and exports
  INVALID_LIMIT_CENTS: { status: 400, message: () => 'limitCents must be an integer of 0 or more (0 means no cap)' },
  INVALID_FORMAT: { status: 400, message: (formats: readonly string[], field = 'format') => `${field} must be one of ${formats.join(', ')}` },
  INVALID_PERIOD: { status: 400, message: (periods: readonly string[]) => `period must be one of ${periods.join(', ')}` },

  // 400 and 409: the operator's admin area
  INVALID_INVITE: { status: 400, message: () => 'This invite link is unknown, used or expired: ask the operator for a new one' },
  INVALID_RESET_TOKEN: { status: 400, message: () => 'This password reset link is unknown, used or expired: ask the operator for a new one' },
  INVALID_KEY_NAME: { status: 400, message: () => 'A key name is 1-100 characters on one line' },
  INVALID_REASON: { status: 400, message: (max: number) => `reason is required, one line of at most ${max} characters` },
  INVALID_ROLE: { status: 400, message: (roles: readonly string[]) => `role must be one of ${roles.join(', ')}` },
  INVALID_CURSOR: { status: 400, message: () => 'before must be the id of an entry of the audit log' },
  LAST_OPERATOR: { status: 409, message: () => 'This is the only operator: make another account an operator first' },
  OWN_ACCOUNT: { status: 409, message: () => 'Operators cannot disable, delete or demote their own account; another operator can' },

  // 401
  API_KEY_REQUIRED: { status: 401, message: () => 'An API key is required: send Authorization: Bearer <key>' },
  INVALID_API_KEY: { status: 401, message: () => 'The API key is unknown or has been revoked' },
  BAD_CREDENTIALS: { status: 401, message: () => 'That email and password do not match an account' },
  SESSION_REQUIRED: { status: 401, message: () => 'You are not signed in' },

  // 403
  CSRF_TOKEN_INVALID: { status: 403, message: () => 'This request did not come from the dashboard page: reload it and try again' },
  INSUFFICIENT_SCOPE: { status: 403, scope: 'mcp', message: (scope: string) => `This connection was not granted the "${scope}" scope: connect the application again and allow it` },
  CONNECTION_NOT_FOUND: { status: 404, message: () => 'No such connected application' },
  SIGNUP_CLOSED: { status: 403, message: () => 'Sign-up is closed on this server: ask its operator for an account' },
  INVITE_REQUIRED: { status: 403, message: () => 'This server takes new accounts by invitation only: ask its operator for an invite link' },
  ACCOUNT_DISABLED: { status: 403, message: () => "This account has been disabled by the server's operator" },
  OPERATOR_REQUIRED: {
    status: 403,
    message: () => "Only the server's operator may do this (over an API key, one made with the admin scope)",
  },
  LINK_DISABLED: { status: 403, message: (reason: string) => `The server's operator disabled this link (${reason}); it cannot be changed, deleted or re-enabled` },
  ACCESS_DENIED: { status: 403, message: () => 'You are not authorized to access this link' },
  TIER_REQUIRED: { status: 403, message: (needed: string) => `This requires the ${needed} plan or higher; upgrade your plan to use it` },
  TIER_UPGRADE_REQUIRED: {
    status: 403,
    message: (needed: string) => `This requires the ${needed} plan or higher; upgrade your plan to use it`,
  },
  PREMIUM_REQUIRED: { status: 403, message: () => 'Custom slugs require the Pro plan or higher' },
  FOLDER_LIMIT_REACHED: {
    status: 403,
    message: (limit: number) => `Your plan allows ${plural(limit, 'folder')}; delete one or upgrade for more`,
  },
  DOMAIN_LIMIT_REACHED: { status: 403, message: (limit: number) => `Your plan allows ${plural(limit, 'custom domain')}; upgrade for more` },
  WEBHOOK_LIMIT_REACHED: { status: 403, message: (limit: number) => `Your plan allows ${plural(limit, 'webhook')}; upgrade for more` },
  PERIOD_EXCEEDS_PLAN: {
    status: 403,
    message: (days: number, period: string) => `Your plan keeps ${days} days of history; ${period} needs an upgrade`,
  },
  OWN_PROGRAM: { status: 403, message: () => 'You cannot join your own affiliate program' },
  PROGRAM_PRIVATE: { status: 403, message: () => 'This affiliate program is private: it takes no partners who find it' },
  PROGRAM_CLOSED: { status: 403, message: () => 'This affiliate program is closed to new partners' },
  PLAN_NOT_ELIGIBLE: { status: 403, message: () => 'The overage cap applies only to plans that pay for overage (Pro and Builder by default)' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: () => "The Origin header is not an http(s) origin: send a page's origin, or none" },

  // 404
  NOT_FOUND: { status: 404, message: () => 'Short URL not found' },
  /** Spec §7: a folder or link of another account named in a folder assignment is 404 "Access denied". */
  FOLDER_ACCESS_DENIED: { status: 404, message: () => 'Access denied' },
  FOLDER_NOT_FOUND: { status: 404, message: () => 'Folder not found' },
  TAG_NOT_FOUND: { status: 404, message: () => 'The link does not carry this tag' },
  VIEW_NOT_FOUND: { status: 404, message: () => 'Saved view not found' },
  TEMPLATE_NOT_FOUND: { status: 404, message: () => 'UTM template not found' },
  DOMAIN_NOT_FOUND: { status: 404, message: () => 'Domain not found' },
  WEBHOOK_NOT_FOUND: { status: 404, message: () => 'Webhook not found' },
  ACCOUNT_NOT_FOUND: { status: 404, message: (detail = 'Account not found') => detail },
  KEY_NOT_FOUND: { status: 404, message: (detail = 'No active API key matches') => detail },
  UNKNOWN_TOOL: { status: 404, scope: 'mcp', message: (name: string) => `No tool is named "${name}"; tools/list names them all` },
  WEB2APP_SESSION_NOT_FOUND: { status: 404, message: () => 'No such web2app session, or it has expired' },
  AFFILIATE_PROGRAM_NOT_FOUND: { status: 404, message: () => 'Affiliate program not found' },
  CLICK_NOT_FOUND: { status: 404, message: () => 'No click of your programs has this click id' },
  NAMESPACE_NOT_FOUND: { status: 404, message: (prefix: string) => `You hold no namespace "${prefix}"` },

  // 405: a method the path does not serve (src/http/methods.ts), with Allow; the router answers it, never an operation
  METHOD_NOT_ALLOWED: { status: 405, scope: 'router', message: (method: string, allowed: readonly string[]) => `${method} is not served at this address, which answers ${allowed.join(', ')}` },

  // 408: a request not sent in time (HEADERS_TIMEOUT, REQUEST_TIMEOUT; src/http/server.ts)
  REQUEST_TIMEOUT: { status: 408, message: () => 'The request was not sent in time' },

  // 409
  SLUG_TAKEN: { status: 409, message: () => 'This custom slug is already in use' },
  // Imports from other shorteners (src/imports): per-row outcomes, and the source's failures
  PATH_TAKEN: { status: 409, scope: 'outcome', message: (path: string) => `${path} is already a short link on Snip; the imported link was not made` },
  PATH_RESERVED: { status: 409, scope: 'outcome', message: (path: string) => `${path} is a path Snip serves itself (the API, the dashboard, ...); the imported link was not made` },
  ALREADY_IMPORTED: { status: 409, scope: 'outcome', message: () => 'Imported by an earlier run; left as it is' },
  PROTECTED_AT_SOURCE: {
    status: 409,
    scope: 'outcome',
    message: () => 'The link asks for a password at the source, which its API does not give out: not imported (make it on Snip with a password of your choosing)',
  },
  ENDED_AT_SOURCE: { status: 409, scope: 'outcome', message: (why: string) => `The link no longer redirects at the source (${why}); not imported` },
  FOLDER_EXISTS: { status: 409, message: () => 'A folder with this name already exists' },
  VIEW_EXISTS: { status: 409, message: () => 'A saved view with this name already exists' },
  TEMPLATE_EXISTS: { status: 409, message: () => 'A UTM template with this name already exists' },
  TAG_EXISTS: { status: 409, message: (tag: string) => `You already have a tag "${tag}": choose another name` },
  DOMAIN_EXISTS: { status: 409, message: () => 'You have already added this domain' },
  DOMAIN_TAKEN: { status: 409, message: () => 'This domain is registered to another account' },
  EMAIL_TAKEN: { status: 409, message: (email: string) => `An account with ${email} exists` },
  NAMESPACE_TAKEN: { status: 409, message: (prefix: string) => `The namespace "${prefix}" belongs to another account` },
  NAMESPACE_HAS_LINKS: {
    status: 409,
    message: (prefix: string, links: number) =>
      `${links === 1 ? '1 link still uses' : `${links} links still use`} "${prefix}"; delete ${links === 1 ? 'it' : 'them'} before releasing it`,
  },
  WEB2APP_SESSION_CLAIMED: { status: 409, message: () => 'This web2app session has already been claimed' },
  ALREADY_JOINED: { status: 409, message: () => 'You are already a partner of this program' },
  ALREADY_CONVERTED: { status: 409, message: () => 'A conversion was already reported for this click id' },
  PARTNER_LINK_DESTINATION: { status: 409, message: () => "A partner link always leads to its program's URL: its destination and app targets cannot be changed" },
  NAMESPACE_BUSY: { status: 409, message: (prefix: string) => `"${prefix}" changed while it was being released; try again` },

  // 413, 415, 429
  BODY_TOO_LARGE: { status: 413, message: () => 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: () => 'Send the body as application/json' },
  RATE_LIMITED: { status: 429, message: (limit: number, window: string) => `Rate limit exceeded: ${limit} ${window}` },
  TOO_MANY_SIGN_IN_ATTEMPTS: { status: 429, message: (minutes: number) => `Too many failed attempts: try again in ${plural(minutes, 'minute')}` },

  // 421: a host name this server does not answer for (src/http/hosts.ts); the host is not echoed
  MISDIRECTED_REQUEST: { status: 421, message: () => "This server does not answer for that host name: use BASE_URL's host, or the operator adds the name to ALLOWED_HOSTS" },

  // 5xx
  INTERNAL_ERROR: { status: 500, message: () => 'Internal server error' },
  NAMESPACE_EXHAUSTED: { status: 500, scope: 'cli', message: () => 'Could not find a free namespace for the account' },
  CODE_SPACE_BUSY: { status: 503, message: () => 'Could not allocate a short code; try again' },
  SOURCE_ERROR: { status: 502, scope: 'outcome', message: (why: string) => `The source answered with an error: ${why}` },
  SOURCE_UNREACHABLE: { status: 502, scope: 'outcome', message: (why: string) => `The source could not be reached: ${why}` },
  SOURCE_AUTH_FAILED: { status: 400, scope: 'outcome', message: (why: string) => `The source refused the key: ${why}` },

  // The operator CLI only
  UNKNOWN_COMMAND: { status: 400, scope: 'cli', message: (name: string) => `Unknown command "${name}"; the commands are listed below` },
  INVALID_ARGUMENT: { status: 400, scope: 'cli', message: (why: string) => why },
  MISSING_ARGUMENT: { status: 400, scope: 'cli', message: (what: string, need = 'is required') => `${what} ${need}` },
  INVALID_SETTING: { status: 400, scope: 'cli', message: (why: string) => why },
  CONFIRMATION_REQUIRED: { status: 400, scope: 'cli', message: (what: string) => `${what}: add --yes to confirm` },
  UNSUPPORTED_FORMAT: { status: 400, scope: 'cli', message: (why: string) => why },
  FILE_UNREADABLE: { status: 400, scope: 'cli', message: (file: string, why: string) => `Cannot read ${file}: ${why}` },
  FILE_UNWRITABLE: { status: 400, scope: 'cli', message: (file: string, why: string) => `Cannot write ${file}: ${why}` },
  FILE_TOO_LARGE: {
    status: 400,
    scope: 'cli',
    message: (limit: string) => `A JSON document is read whole, up to ${limit}: export the links as CSV or JSON lines instead`,
  },
  INVALID_FILE: { status: 400, scope: 'cli', message: (why: string) => why },
  INVALID_CSV: { status: 400, scope: 'cli', message: (why: string) => `${why}; the file was not read past this row` },
} as const satisfies Record<string, Entry>;

/** A code of the catalogue. */
export type CatalogueCode = keyof typeof catalogue;

/** The pattern entry: a schema failure on a named field (`INVALID_MAX_CLICKS`, `MISSING_URLS`); always 400. */
export type FieldCode = `INVALID_${string}` | `MISSING_${string}`;
export const FIELD_CODE_STATUS = 400;
export const FIELD_CODE_PATTERN = /^(INVALID|MISSING)_[A-Z0-9]+(_[A-Z0-9]+)*$/;

/** Every code Snip may answer with. */
export type ErrorCode = CatalogueCode | FieldCode;

export type StatusOf<C extends ErrorCode> = C extends CatalogueCode ? (typeof catalogue)[C]['status'] : typeof FIELD_CODE_STATUS;
export type MessageArgs<C extends CatalogueCode> = Parameters<(typeof catalogue)[C]['message']>;

export const isCatalogueCode = (code: string): code is CatalogueCode => Object.hasOwn(catalogue, code);

/** True for a catalogue code or a field code (the pattern entry). */
export const isErrorCode = (code: string): code is ErrorCode => isCatalogueCode(code) || FIELD_CODE_PATTERN.test(code);

export function statusOf(code: ErrorCode): number {
  return isCatalogueCode(code) ? catalogue[code].status : FIELD_CODE_STATUS;
}

/** The codes REST routes may answer with (the OpenAPI lists them): every code but the CLI's, MCP's and the router's own. */
export const httpCodes = (): CatalogueCode[] => (Object.keys(catalogue) as CatalogueCode[]).filter((code) => !('scope' in catalogue[code]));
