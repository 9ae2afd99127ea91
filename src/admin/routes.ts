import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ROLES } from '../caller.js';
import { bind, callerOf } from '../http/access.js';
import { optionalBody } from '../http/validators.js';
import type { Operation } from '../access/operation.js';
import { TIERS } from '../plans.js';
import { DateTime, errorResponses, Nullable, StringEnum } from '../schema/shapes.js';
import { named } from '../schema/names.js';
import { actorOf } from './audit.js';
import { ADMIN_OPERATIONS as ops } from './operations.js';
import type { AdminService } from './service.js';
import { SIGN_UP_MODES } from './sign-ups.js';

const tags = ['admin'];
const Tier = StringEnum(TIERS);

const AdminAccount = named('AdminAccount', 'An account as the operator sees it', Type.Object({
  id: Type.String(),
  email: Type.String(),
  tier: Tier,
  role: StringEnum(ROLES),
  namespace: Nullable(Type.String()),
  createdAt: DateTime(),
  disabledAt: Nullable(DateTime('When an operator disabled it; null while it works')),
  disabledReason: Nullable(Type.String()),
  linkCount: Type.Integer(),
}));

const AdminLink = named('AdminLink', 'A link as the operator finds it', Type.Object({
  id: Type.String(),
  shortUrl: Type.String(),
  url: Type.String(),
  owner: Type.Object({ id: Type.String(), email: Type.String() }),
  createdAt: DateTime(),
  clicks: Type.Integer(),
  disabledAt: Nullable(DateTime()),
  disabledReason: Nullable(Type.String()),
}));

const SignUpSettings = named('SignUpSettings', 'Who may make an account from the sign-up page, and the plan new accounts get', Type.Object({
  mode: StringEnum(SIGN_UP_MODES, { description: 'open: anyone; invite: with an invite link; closed: nobody (the CLI still can)' }),
  tier: Tier,
}));

const OneTimeLink = Type.Object({ url: Type.String({ description: 'Pass it on: it works once' }), expiresAt: DateTime() });
const AccountParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const LinkParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** An admin route's binding: the operation's access and codes, under the operation's own id. */
const admin = (op: Operation) => bind(op, 'A', { operationId: op.id });

/**
 * The Admin area's API (/api/admin/...), for operators only: the dashboard's session (with its CSRF token) or a key
 * made with the admin scope. Not part of Description A or B; every change is in the audit log.
 */
export const adminRoutes =
  (service: AdminService): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Answers hold other people's data and one-time links: no browser or proxy keeps them.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    const actor = (request: Parameters<typeof callerOf>[0]) => actorOf(callerOf(request));

    app.get('/api/admin/accounts', {
      config: admin(ops.listAccounts),
      schema: {
        tags, summary: 'Accounts, searched by email', description: 'Every account of the server, oldest first, with its plan, role, state and number of links; `q` keeps the emails that contain it.',
        querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 320 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })), offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })) }),
        response: { 200: Type.Object({ accounts: Type.Array(AdminAccount), total: Type.Integer() }), ...errorResponses(400, 401, 403) },
      },
    }, async (request) => service.listAccounts(request.query));

    app.put('/api/admin/accounts/:id/plan', {
      config: admin(ops.setPlan),
      schema: { tags, summary: "Change an account's plan", description: "Moves the account to another plan; it applies to the account's next request.", params: AccountParams, body: Type.Object({ tier: Type.String({ maxLength: 40 }) }), response: { 200: AdminAccount, ...errorResponses(400, 401, 403, 404) } },
    }, async (request) => service.setPlan(actor(request), request.params.id, request.body.tier));

    app.put('/api/admin/accounts/:id/role', {
      config: admin(ops.setRole),
      schema: { tags, summary: 'Make an account an operator, or a member again', description: 'Operators run the server: no plan limits and this Admin area. An operator cannot demote themselves, and the last operator stays one.', params: AccountParams, body: Type.Object({ role: Type.String({ maxLength: 40 }) }), response: { 200: AdminAccount, ...errorResponses(400, 401, 403, 404, 409) } },
    }, async (request) => service.setRole(actor(request), request.params.id, request.body.role));

    app.post('/api/admin/accounts/:id/disable', {
      config: admin(ops.disableAccount),
      preValidation: optionalBody,
      schema: { tags, summary: 'Disable an account', description: "Its sessions end, its keys and OAuth grants are refused (ACCOUNT_DISABLED) until it is enabled again; its links keep redirecting.", params: AccountParams, body: Type.Object({ reason: Type.Optional(Type.String({ maxLength: 2000 })) }), response: { 200: AdminAccount, ...errorResponses(400, 401, 403, 404, 409) } },
    }, async (request) => service.disable(actor(request), request.params.id, request.body.reason));

    app.post('/api/admin/accounts/:id/enable', {
      config: admin(ops.enableAccount),
      schema: { tags, summary: 'Enable a disabled account', description: 'Its keys and OAuth grants work again; its owner signs in again.', params: AccountParams, response: { 200: AdminAccount, ...errorResponses(401, 403, 404) } },
    }, async (request) => service.enable(actor(request), request.params.id));

    app.post('/api/admin/accounts/:id/password-reset', {
      config: admin(ops.passwordReset),
      schema: { tags, summary: 'A one-time link to set a new password', description: 'Answers a link (valid 24 hours, once) for the operator to pass on; a newer link replaces it. Using it ends every session of the account.', params: AccountParams, response: { 200: OneTimeLink, ...errorResponses(401, 403, 404) } },
    }, async (request) => service.passwordReset(actor(request), request.params.id));

    app.delete('/api/admin/accounts/:id', {
      config: admin(ops.deleteAccount),
      schema: { tags, summary: 'Delete an account and everything it owns', description: 'Deletes the account, its links, clicks, keys, webhooks, folders and domains for good.', params: AccountParams, response: { 200: Type.Object({ deleted: Type.Literal(true), links: Type.Integer(), apiKeys: Type.Integer(), clicks: Type.Integer() }), ...errorResponses(401, 403, 404, 409) } },
    }, async (request) => service.deleteAccount(actor(request), request.params.id));

    app.get('/api/admin/sign-ups', {
      config: admin(ops.getSignUps),
      schema: { tags, summary: 'The sign-up setting', description: 'Whether the sign-up page is open, by invite only or closed, and the plan new accounts get.', response: { 200: SignUpSettings, ...errorResponses(401, 403) } },
    }, async () => service.signUps.settings());

    app.put('/api/admin/sign-ups', {
      config: admin(ops.setSignUps),
      schema: { tags, summary: 'Change the sign-up setting', description: 'Opens, restricts to invites or closes the sign-up page, and sets the plan new accounts get.', body: SignUpSettings, response: { 200: SignUpSettings, ...errorResponses(400, 401, 403) } },
    }, async (request) => service.signUps.update(actor(request), request.body));

    app.post('/api/admin/invites', {
      config: admin(ops.createInvite),
      preValidation: optionalBody,
      schema: { tags, summary: 'A one-time invite link', description: 'A sign-up link that works once within 7 days, also while sign-ups are invite only; the account made with it gets `tier` (default: the plan of new accounts).', body: Type.Object({ tier: Type.Optional(Type.String({ maxLength: 40 })) }), response: { 200: Type.Object({ ...OneTimeLink.properties, tier: Tier }), ...errorResponses(400, 401, 403) } },
    }, async (request) => service.signUps.createInvite(actor(request), request.body.tier));

    app.get('/api/admin/links/find', {
      config: admin(ops.findLink),
      schema: { tags, summary: 'Find any link by its short URL', description: 'Takes a short URL (on the default host or a custom domain) or its short path, such as abc123 or ns/slug.', querystring: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) }), response: { 200: AdminLink, ...errorResponses(400, 401, 403, 404) } },
    }, async (request) => service.findLink(request.query.url));

    app.post('/api/admin/links/:id/disable', {
      config: admin(ops.disableLink),
      schema: { tags, summary: 'Disable a link (abuse)', description: 'Visitors get a page saying the link was disabled, never its destination; the owner sees the reason and cannot change or re-enable it.', params: LinkParams, body: Type.Object({ reason: Type.String({ maxLength: 2000 }) }), response: { 200: AdminLink, ...errorResponses(400, 401, 403, 404) } },
    }, async (request) => service.disableLink(actor(request), request.params.id, request.body.reason));

    app.post('/api/admin/links/:id/enable', {
      config: admin(ops.enableLink),
      schema: { tags, summary: 'Enable a disabled link', description: 'The link redirects again.', params: LinkParams, response: { 200: AdminLink, ...errorResponses(401, 403, 404) } },
    }, async (request) => service.enableLink(actor(request), request.params.id));

    app.get('/api/admin/status', {
      config: admin(ops.status),
      schema: {
        tags, summary: "The server's status", description: 'Version, database, Redis, clicks not yet committed, webhook deliveries waiting, and how many accounts and links there are.',
        response: {
          200: Type.Object({
            version: Type.String(),
            database: StringEnum(['sqlite', 'postgres']),
            redis: StringEnum(['connected', 'unavailable', 'not configured']),
            journalLag: Type.Integer({ description: 'Click records taken but not yet committed to the database' }),
            webhookBacklog: Type.Integer({ description: 'Events not yet relayed plus webhook deliveries waiting' }),
            accounts: Type.Integer(),
            links: Type.Integer(),
          }),
          ...errorResponses(401, 403),
        },
      },
    }, async () => service.status());

    app.get('/api/admin/audit', {
      config: admin(ops.audit),
      schema: {
        tags, summary: 'The audit log of operator actions', description: 'Every operator action with who did it and when, newest first; `before` takes the `next` of the previous page.',
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })), before: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: {
          200: Type.Object({
            entries: Type.Array(Type.Object({ id: Type.String(), at: DateTime(), actor: Type.String({ description: "The operator's email, or cli" }), action: Type.String(), target: Nullable(Type.String()), detail: Nullable(Type.Object({}, { additionalProperties: true })) })),
            next: Nullable(Type.String()),
          }),
          ...errorResponses(400, 401, 403),
        },
      },
    }, async (request) => service.audit(request.query));
  };
