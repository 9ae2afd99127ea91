/**
 * The dashboard's only way to Snip: the public REST API through Snip's typed client (client/, generated from
 * /openapi.yaml), as any client calls it. A signed-in browser is authenticated by its session cookie; every
 * state-changing call carries the session's CSRF token. Request and answer types come from the client by path
 * (`Answer<'/api/links', 'get'>`), never written here.
 */
import { createSnipClient } from '../../client';

export { ApiError, isApiError } from '../../client';
export type { Answer, ApiErrorCode, Body, Query } from '../../client';

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

/** Snip, from this page: same origin, the session's cookie, its CSRF token on every state-changing call. */
export const snip = createSnipClient({
  credentials: 'same-origin',
  csrfToken: () => csrfToken,
  // A 401 from the sign-in routes is a wrong password or no session yet, not a session that ended.
  onUnauthorized: (path) => {
    if (!path.startsWith('/api/auth/')) onSignedOut?.();
  },
});

/** A short path (`abc123` or `prefix/slug`) as B's and A's routes take it: one path parameter (the client encodes the slash). */
export const shortPathParams = (shortPath: string) => ({ path: { shortPath } });

/** The message to show for any error a call threw. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
