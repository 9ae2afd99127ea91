import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TIERS } from '../plans.js';
import { ROLES } from '../caller.js';
import { errors } from '../errors.js';
import { errorResponses, Nullable, StringEnum } from '../schema/shapes.js';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from './cookie.js';
import { PASSWORD_MAX_LENGTH } from './passwords.js';
import type { SessionsService, SignedIn } from './service.js';
import { named } from '../schema/names.js';

const tags = ['dashboard sessions'];
const Credentials = Type.Object({
  email: Type.String({ maxLength: 320 }),
  // Longer than the rules allow, so an over-long password gets the rule's message rather than a schema's.
  password: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 }),
});
const SessionAnswer = named('Session', 'The signed-in account and the CSRF token of its session', Type.Object({
  account: Type.Object({
    id: Type.String(),
    email: Type.String(),
    tier: StringEnum(TIERS),
    namespace: Nullable(Type.String()),
    role: StringEnum(ROLES, { description: '`operator`: runs this server (no plan limits, the Admin area); `member`: every other account' }),
  }),
  csrfToken: Type.String({ description: 'Send it as X-CSRF-Token with every state-changing request this session makes' }),
}));

/**
 * The dashboard's sign-in: a session cookie for a browser, which then calls the same REST operations as a key
 * (src/http/access.ts reads the cookie). These routes need no key; they are limited per address like every such route.
 */
export const sessionRoutes =
  (sessions: SessionsService, secureCookie: boolean): FastifyPluginAsyncTypebox =>
  async (app) => {
    const answer = (signedIn: SignedIn) => ({ account: signedIn.account, csrfToken: signedIn.csrfToken });
    const open = { auth: 'none' } as const;
    // Every answer here may carry the session's CSRF token: no browser or proxy may keep one (refusals included, simpler).
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post(
      '/api/auth/sign-up',
      {
        config: { access: open, errors: ['INVALID_EMAIL', 'INVALID_PASSWORD', 'EMAIL_TAKEN', 'SIGNUP_CLOSED', 'INVITE_REQUIRED', 'INVALID_INVITE', 'TOO_MANY_SIGN_IN_ATTEMPTS'] },
        schema: {
          tags,
          operationId: 'signUp',
          summary: 'Create an account with a password and sign in (sets the session cookie)',
          description:
            "For the dashboard, no key: opens an account on the plan the operator set for sign-ups (or the invite's) and signs it in, setting the session cookie. The first account of a server becomes its operator. Refused when the operator has closed sign-ups, or without an invite when they take invites only.",
          body: Type.Object({ ...Credentials.properties, invite: Type.Optional(Type.String({ maxLength: 200, description: 'The token of an invite link (?invite=...)' })) }),
          response: { 201: SessionAnswer, ...errorResponses(400, 403, 409, 429) },
        },
      },
      async (request, reply) => {
        const signedIn = await sessions.signUp(request.body, request.ip);
        setSessionCookie(reply, signedIn.token, secureCookie);
        return reply.status(201).send(answer(signedIn));
      },
    );

    app.get(
      '/api/auth/sign-up-options',
      {
        config: { access: open, errors: [] },
        schema: {
          tags,
          operationId: 'getSignUpOptions',
          summary: 'Whether the sign-up page is open',
          description: 'For the sign-up page: open, invite (an invite link is needed) or closed; `firstAccount` when the server has no account yet (the first becomes its operator).',
          response: { 200: Type.Object({ mode: StringEnum(['open', 'invite', 'closed']), firstAccount: Type.Boolean() }) },
        },
      },
      async () => sessions.signUpOptions(),
    );

    app.post(
      '/api/auth/reset-password',
      {
        config: { access: open, errors: ['INVALID_RESET_TOKEN', 'INVALID_PASSWORD', 'ACCOUNT_DISABLED', 'TOO_MANY_SIGN_IN_ATTEMPTS'] },
        schema: {
          tags,
          operationId: 'resetPassword',
          summary: "Set a new password with the operator's one-time reset link, and sign in",
          description: 'For the dashboard: the token of a reset link the operator made (Admin, or the CLI) and the new password. Every session of the account ends; this browser signs in.',
          body: Type.Object({ token: Type.String({ maxLength: 200 }), password: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 }) }),
          response: { 200: SessionAnswer, ...errorResponses(400, 403, 429) },
        },
      },
      async (request, reply) => {
        const signedIn = await sessions.resetPassword(request.body, request.ip);
        setSessionCookie(reply, signedIn.token, secureCookie);
        return answer(signedIn);
      },
    );

    app.post(
      '/api/auth/sign-in',
      {
        config: { access: open, errors: ['BAD_CREDENTIALS', 'ACCOUNT_DISABLED', 'TOO_MANY_SIGN_IN_ATTEMPTS'] },
        schema: { tags, operationId: 'signIn', summary: 'Sign in with email and password (sets the session cookie)', description: 'For the dashboard, no key: signs in with email and password and sets the session cookie. Repeated failures lock further attempts for a while.', body: Credentials, response: { 200: SessionAnswer, ...errorResponses(401, 403, 429) } },
      },
      async (request, reply) => {
        const signedIn = await sessions.signIn(request.body, request.ip);
        setSessionCookie(reply, signedIn.token, secureCookie);
        return answer(signedIn);
      },
    );

    app.get(
      '/api/auth/session',
      {
        config: { access: open, errors: ['SESSION_REQUIRED'] },
        schema: { tags, operationId: 'getSession', summary: "The signed-in account and the session's CSRF token", description: 'For the dashboard: answers who the session cookie signs in, and the CSRF token its state-changing requests must send as X-CSRF-Token.', response: { 200: SessionAnswer, ...errorResponses(401) } },
      },
      async (request) => {
        const token = sessionTokenOf(request);
        const caller = token ? await sessions.authenticate(token) : null;
        if (!token || !caller) throw errors.sessionRequired();
        return sessions.describe(caller, token);
      },
    );

    app.post(
      '/api/auth/sign-out',
      {
        config: { access: open, errors: ['CSRF_TOKEN_INVALID'] },
        schema: { tags, operationId: 'signOut', summary: 'End this session (clears the cookie)', description: 'For the dashboard: ends the session of the cookie sent (its CSRF token is needed) and clears the cookie. Without a session it just clears the cookie.', response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses(403) } },
      },
      async (request, reply) => {
        const token = sessionTokenOf(request);
        if (token && (await sessions.authenticate(token))) {
          if (!sessions.csrfMatches(token, request.headers['x-csrf-token'] as string | undefined)) throw errors.csrfTokenInvalid();
          await sessions.signOut(token);
        }
        clearSessionCookie(reply, secureCookie);
        return { success: true };
      },
    );

    app.post(
      '/api/auth/password',
      {
        config: { access: open, errors: ['SESSION_REQUIRED', 'CSRF_TOKEN_INVALID', 'INVALID_PASSWORD', 'WRONG_PASSWORD', 'TOO_MANY_SIGN_IN_ATTEMPTS'] },
        schema: {
          tags,
          operationId: 'changePassword',
          summary: "Change the signed-in account's password; every other session ends and this one is renewed",
          description: "For the dashboard: changes the signed-in account's password, given the current one. Every other session of the account ends; this one gets a new cookie and CSRF token.",
          body: Type.Object({ currentPassword: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 }), newPassword: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 }) }),
          response: { 200: SessionAnswer, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (request, reply) => {
        const token = sessionTokenOf(request);
        const caller = token ? await sessions.authenticate(token) : null;
        if (!token || !caller) throw errors.sessionRequired();
        if (!sessions.csrfMatches(token, request.headers['x-csrf-token'] as string | undefined)) throw errors.csrfTokenInvalid();
        const signedIn = await sessions.changePassword(caller, request.body, request.ip);
        setSessionCookie(reply, signedIn.token, secureCookie);
        return answer(signedIn);
      },
    );
  };
