/**
 * The dashboard's only way to Snip: the public REST API, as any client calls it. A signed-in browser is
 * authenticated by its session cookie; every state-changing call carries the session's CSRF token.
 */

/** An API refusal: `code` is the API's stable error code (INVALID_URL, SLUG_TAKEN, ...), `message` its sentence. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onSignedOut: (() => void) | null = null;

/** Set by the session (src/session.tsx) when it signs in or learns the session's token. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the API answers 401 to a signed-in page: the session ended (signed out elsewhere, password changed). */
export function onSessionLost(handler: (() => void) | null): void {
  onSignedOut = handler;
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function errorOf(status: number, data: unknown, fallback: string): ApiError {
  const body = isRecord(data) ? data : {};
  const code = typeof body.code === 'string' ? body.code : `HTTP_${status}`;
  const message = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : fallback;
  return new ApiError(status, code, message, data);
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_ERROR', 'Snip could not be reached. Check your connection and try again.', null);
  }
  if (response.status === 401 && !path.startsWith('/api/auth/')) onSignedOut?.();
  return response;
}

/** Calls the API and returns its JSON answer; throws ApiError for any answer that is not 2xx. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) throw errorOf(response.status, data, response.statusText || 'Request failed');
  return data as T;
}

/** Calls the API for a file (CSV export, QR PNG) and returns it as a Blob. */
export async function apiBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await send(path, options);
  if (!response.ok) {
    const text = await response.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    throw errorOf(response.status, data, response.statusText || 'Request failed');
  }
  return response.blob();
}

/** A path segment for a short path (`abc123` or `prefix/slug`): B's routes take the slash URL-encoded. */
export const pathParam = (value: string): string => encodeURIComponent(value);

/** The message to show for any error thrown by `api`. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
