/**
 * The one error type of Snip. Services throw it; each surface (REST A, REST B, MCP, CLI) maps it to its own
 * body at the edge. `code` is stable and machine readable; `message` is for people.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Headers the answer must carry (Retry-After and the rate-limit headers of a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** An update naming nothing to change is refused, whichever surface sent it (REST, MCP). */
export function requireChange(input: object): void {
  if (Object.values(input).every((v) => v === undefined)) throw new AppError(400, 'INVALID_BODY', 'Give at least one field to change');
}

export const errors = {
  apiKeyRequired: () => new AppError(401, 'API_KEY_REQUIRED', 'An API key is required: send Authorization: Bearer <key>'),
  invalidApiKey: () => new AppError(401, 'INVALID_API_KEY', 'The API key is unknown or has been revoked'),
  tierRequired: (needed: string, code = 'TIER_REQUIRED') =>
    new AppError(403, code, `This requires the ${needed} plan or higher; upgrade your plan to use it`),
  premiumRequired: () => new AppError(403, 'PREMIUM_REQUIRED', 'Custom slugs require the Pro plan or higher'),
  missingUrl: () => new AppError(400, 'MISSING_URL', 'URL is required'),
  invalidUrl: (why: string) => new AppError(400, 'INVALID_URL', `Invalid URL: ${why}`),
  linkNotFound: () => new AppError(404, 'NOT_FOUND', 'Short URL not found'),
  accessDenied: () => new AppError(403, 'ACCESS_DENIED', 'You are not authorized to access this link'),
  slugTaken: () => new AppError(409, 'SLUG_TAKEN', 'This custom slug is already in use'),
  badRequest: (code: string, message: string) => new AppError(400, code, message),
  notFound: (code: string, message: string) => new AppError(404, code, message),
  conflict: (code: string, message: string) => new AppError(409, code, message),
};
