import { ERROR_CODES, type ErrorCode } from './error-codes.js';

/**
 * Codes the client answers with itself, for failures no Snip error body explains: no answer at all (the network, a
 * server that is down), or an answer that is not Snip's (a proxy's HTML page, an empty 502).
 */
export type ClientErrorCode = 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE';

/** Every code an `ApiError` carries. */
export type ApiErrorCode = ErrorCode | ClientErrorCode;

/** True for a code of Snip's catalogue (as this client was generated). */
export const isErrorCode = (code: string): code is ErrorCode => (ERROR_CODES as readonly string[]).includes(code);

/**
 * A call Snip refused (or that never reached it): `status` is the HTTP status (0 when no answer came), `code` the
 * stable code to branch on (INVALID_URL, SLUG_TAKEN, ...), `message` the sentence for people, `body` the answer as
 * sent. Both dialects' error bodies are read: A's `{error: true, message, code}` and B's `{error: <text>, code}`.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The error for a refused call. A server newer than this client may answer a code it does not list: the code is
 * kept as sent (typed as the union, so regenerate the client to branch on it).
 */
export function apiErrorOf(status: number, body: unknown, statusText = ''): ApiError {
  const fields = isRecord(body) ? body : {};
  if (typeof fields.code !== 'string') {
    return new ApiError(status, 'UNEXPECTED_RESPONSE', statusText ? `Snip answered ${status} ${statusText}` : `Snip answered ${status}`, body);
  }
  const message = typeof fields.message === 'string' ? fields.message : typeof fields.error === 'string' ? fields.error : fields.code;
  return new ApiError(status, fields.code as ErrorCode, message, body);
}

/** True when `error` is an ApiError, and of one of `codes` when any are given. */
export function isApiError(error: unknown, ...codes: ApiErrorCode[]): error is ApiError {
  return error instanceof ApiError && (codes.length === 0 || codes.includes(error.code));
}
