import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_DAYS } from './service.js';

export const SESSION_COOKIE = 'snip_session';

/** The session token the browser sent, if any; cookies are parsed only here, never on the redirect path. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header || !header.includes(SESSION_COOKIE)) return undefined;
  return request.server.parseCookie(header)[SESSION_COOKIE] || undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure when Snip is served over
 * https, for the whole site, because the dashboard calls /api.
 */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: SESSION_DAYS * 86_400 });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure, path: '/' });
}
