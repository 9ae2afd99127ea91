import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { nulError, nulPath } from '../schema/issues.js';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from '../sessions/cookie.js';
import { PASSWORD_MAX_LENGTH } from '../sessions/passwords.js';
import { csrfTokenOf, type SessionsService } from '../sessions/service.js';
import { consentPage, errorPage, OAUTH_PAGE_POLICY, sameSiteHopPage, signInPage } from './pages.js';
import { OAUTH_PATHS } from './provider.js';
import type { OAuthService, PendingAuthorization } from './service.js';

const hidden = { hide: true };
const open = { auth: 'none' } as const;
const Params = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 100 }) });
const SignInForm = Type.Object({ email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 }) });
const SwitchForm = Type.Object({ csrf: Type.String({ maxLength: 200 }) });
const ConsentForm = Type.Object({ csrf: Type.String({ maxLength: 200 }), decision: Type.Union([Type.Literal('allow'), Type.Literal('deny')]) });

const page = (reply: FastifyReply, status: number, html: string) =>
  reply.status(status).header('content-security-policy', OAUTH_PAGE_POLICY).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);

const notFromThePage = (reply: FastifyReply) =>
  page(reply, 403, errorPage('csrf_token_invalid', 'This answer did not come from the consent page: reload it and try again.'));

const asksNothing = (reply: FastifyReply) =>
  page(reply, 400, errorPage('invalid_scope', 'The application asked for no permission Snip offers. Go back to it and connect again.'));

const gone = (reply: FastifyReply) =>
  page(reply, 400, errorPage('interaction_expired', 'This sign-in has expired, or was started in another browser. Go back to the application and connect again.'));

/**
 * The pages of an authorization in progress (oidc-provider sends the browser to /oauth/interaction/<uid>): the
 * dashboard's sign-in when the browser has no session, then the consent page. Signing in here is the dashboard's own
 * sign-in (its attempt limits, its session cookie); each form is bound to the browser by the server's interaction
 * cookie, and consent also by the session's CSRF token.
 */
export const interactionRoutes =
  (oauth: OAuthService, sessions: SessionsService, secureCookie: boolean): FastifyPluginAsyncTypebox =>
  async (app) => {
    // The forms' fields, NUL refused as in every JSON body (PostgreSQL cannot store it; no field needs it).
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_request, body, done) => {
      const fields = Object.fromEntries(new URLSearchParams(body as string));
      const path = nulPath(fields);
      if (path) done(nulError(path, 'The form'), undefined);
      else done(null, fields);
    });
    const base = OAUTH_PATHS.interaction;
    const raw = (request: FastifyRequest, reply: FastifyReply) => ({ req: request.raw, res: reply.raw });
    const signedIn = async (request: FastifyRequest) => {
      const token = sessionTokenOf(request);
      const caller = token ? await sessions.authenticate(token) : null;
      return token && caller ? { token, caller } : null;
    };
    const signIn = (reply: FastifyReply, pending: PendingAuthorization, status: number, error: string | null, email = '') =>
      page(reply, status, signInPage(`${base}/${pending.uid}/sign-in`, pending.clientName, error, email));

    app.get(
      `${base}/:uid`,
      { config: { access: open }, schema: { ...hidden, params: Params, querystring: Type.Object({ hop: Type.Optional(Type.String()) }) } },
      async (request, reply) => {
        const pending = await oauth.pending(raw(request, reply), request.params.uid);
        if (!pending) return gone(reply);
        if (pending.scopes.length === 0) return asksNothing(reply);
        const session = await signedIn(request);
        if (!session) {
          // Sent here from another site, the browser withheld the session cookie (SameSite=Strict), if it has one.
          const crossSite = request.headers['sec-fetch-site'] === 'cross-site';
          if (crossSite && sessionTokenOf(request) === undefined && request.query.hop === undefined) return page(reply, 200, sameSiteHopPage(`${base}/${pending.uid}?hop=1`));
          return signIn(reply, pending, 200, null);
        }
        return page(
          reply,
          200,
          consentPage({
            action: `${base}/${pending.uid}/consent`,
            switchAction: `${base}/${pending.uid}/switch-account`,
            csrfToken: csrfTokenOf(session.token),
            clientName: pending.clientName,
            clientUri: pending.clientUri,
            redirectTo: pending.redirectTo,
            email: session.caller.email,
            scopes: pending.scopes,
          }),
        );
      },
    );

    app.post(`${base}/:uid/sign-in`, { config: { access: open }, schema: { ...hidden, params: Params, body: SignInForm } }, async (request, reply) => {
      const pending = await oauth.pending(raw(request, reply), request.params.uid);
      if (!pending) return gone(reply);
      try {
        const session = await sessions.signIn(request.body, request.ip);
        setSessionCookie(reply, session.token, secureCookie);
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        reply.headers(error.headers);
        return signIn(reply, pending, error.status, error.message, request.body.email);
      }
      return reply.redirect(`${base}/${pending.uid}`, 303);
    });

    app.post(`${base}/:uid/switch-account`, { config: { access: open }, schema: { ...hidden, params: Params, body: SwitchForm } }, async (request, reply) => {
      const pending = await oauth.pending(raw(request, reply), request.params.uid);
      if (!pending) return gone(reply);
      const session = await signedIn(request);
      if (session) {
        if (!sessions.csrfMatches(session.token, request.body.csrf)) return notFromThePage(reply);
        await sessions.signOut(session.token);
      }
      clearSessionCookie(reply, secureCookie);
      return reply.redirect(`${base}/${pending.uid}`, 303);
    });

    app.post(`${base}/:uid/consent`, { config: { access: open }, schema: { ...hidden, params: Params, body: ConsentForm } }, async (request, reply) => {
      const pending = await oauth.pending(raw(request, reply), request.params.uid);
      if (!pending) return gone(reply);
      const session = await signedIn(request);
      if (!session) return reply.redirect(`${base}/${pending.uid}`, 303);
      if (!sessions.csrfMatches(session.token, request.body.csrf)) return notFromThePage(reply);
      if (pending.scopes.length === 0) return asksNothing(reply);
      const next = await oauth.decide(raw(request, reply), pending, session.caller.accountId, request.body.decision === 'allow');
      return reply.redirect(next, 303);
    });
  };
