import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { optionalBody } from '../http/validators.js';
import { DateTime, errorResponses, Nullable, StringEnum } from '../schema/shapes.js';
import { TIERS } from '../plans.js';
import { ROLES } from '../caller.js';
import { ACCOUNT_OPERATIONS as ops } from './operations.js';
import type { AccountsService } from './service.js';

const Limit = (description: string) => Nullable(Type.Integer({ description: `${description}; null means unlimited` }));

export const Profile = Type.Object({
  id: Type.String(),
  email: Type.String(),
  tier: Type.Union(TIERS.map((t) => Type.Literal(t))),
  namespace: Nullable(Type.String({ description: 'Prefix of custom-slug links: <namespace>/<slug>' })),
  role: StringEnum(ROLES, { description: '`operator`: runs this server (no plan limits: `limits` says so); `member`: every other account' }),
  createdAt: DateTime(),
  limits: Type.Object({
    apiAccess: Type.Boolean(),
    customSlugs: Type.Boolean(),
    appLinks: Type.Boolean({ description: 'App targets on links (web2app)' }),
    requestsPerHour: Limit('API requests per hour'),
    requestsPerMonth: Limit('API requests per month'),
    requestsPerMinute: Limit('API requests per minute'),
    linksPerDay: Limit('Links created per UTC day'),
    bulkRequestsPerHour: Limit('Bulk requests per hour'),
    trackedClicksPerMonth: Limit('Tracked clicks per month'),
    historyDays: Type.Integer({ description: 'Days of analytics history' }),
    webhooks: Limit('Webhooks'),
    folders: Limit('Folders'),
    domains: Limit('Custom domains'),
    overageCentsPer1000: Limit('Overage price in US cents per 1,000 tracked clicks beyond the monthly limit (null: none)'),
    overageCapCents: Limit('Default monthly overage cap in cents (null: no cap)'),
  }),
});

const KeyInfo = Type.Object({
  id: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
  createdAt: DateTime(),
  name: Nullable(Type.String({ description: 'What its owner called it; null when unnamed' })),
  lastUsedAt: Nullable(DateTime('When the key was last used, to the minute; null when never')),
});

const NamespaceInfo = Type.Object({
  namespace: Type.String(),
  current: Type.Boolean({ description: 'True for the prefix new custom-slug links get' }),
  linkCount: Type.Integer({ description: 'Links under this prefix; only a prefix without links can be released' }),
  createdAt: DateTime(),
});

// The namespace answers, named: MCP's set_namespace and delete_namespace answer the same.
export const NamespaceClaimed = Type.Object({ namespace: Type.String() });
export const NamespaceReleased = Type.Object({ success: Type.Boolean(), namespace: Type.String() });

const tags = ['account (B)'];

/** Description B's account groups: /api/user and /api/keys. */
export const accountRoutesB =
  (accounts: AccountsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/api/user', { config: bind(ops.getUser, 'B'), schema: { tags, summary: "The caller's profile and plan limits", description: 'Answers the account the key belongs to: its email, plan and namespace, and every limit of its plan (null: unlimited). Any plan may call it.', response: { 200: Profile } } }, async (request) =>
      accounts.profile(callerOf(request).accountId),
    );

    app.put(
      '/api/user/namespace',
      {
        config: bind(ops.claimNamespace, 'B'),
        schema: {
          tags,
          summary: 'Claim a namespace (the prefix of custom-slug links)',
          description: "Makes a free namespace (or one the caller holds) its current one: custom-slug links made from now on are <namespace>/<slug>. Earlier namespaces stay the caller's while links use them, so those links keep their paths; the others are released.",
          body: Type.Object({ namespace: Type.String({ description: '3-30 characters: a-z, 0-9, inner hyphens' }) }),
          response: { 200: NamespaceClaimed, ...errorResponses(400, 409) },
        },
      },
      async (request) => accounts.claimNamespace(callerOf(request).accountId, request.body.namespace),
    );

    app.get(
      '/api/user/namespaces',
      {
        config: bind(ops.listNamespaces, 'B'),
        schema: {
          tags,
          summary: 'The namespaces the caller holds, which one is current, and how many links use each',
          description: 'Lists every namespace the caller holds, oldest first, with the number of links under each and which one new custom-slug links get.',
          response: { 200: Type.Object({ current: Nullable(Type.String()), namespaces: Type.Array(NamespaceInfo, { description: 'Oldest first' }) }) },
        },
      },
      async (request) => {
        const namespaces = await accounts.namespaces(callerOf(request).accountId);
        return { current: namespaces.find((n) => n.current)?.namespace ?? null, namespaces };
      },
    );

    app.delete(
      '/api/user/namespaces/:namespace',
      {
        config: bind(ops.releaseNamespace, 'B'),
        schema: {
          tags,
          summary: 'Release a namespace (not the current one, and only without links) so anyone may claim it again',
          description: 'Gives up a namespace the caller holds. Refused for the current namespace (claim another first) and while links use it, since their paths would pass to the next owner.',
          params: Type.Object({ namespace: Type.String() }),
          response: { 200: NamespaceReleased, ...errorResponses(400, 404, 409) },
        },
      },
      async (request) => ({ success: true, ...(await accounts.releaseNamespace(callerOf(request).accountId, request.params.namespace)) }),
    );

    app.get('/api/keys', { config: bind(ops.listKeys, 'B'), schema: { tags, summary: "The caller's active keys", description: "Lists the caller's API keys that still work, by id and first characters; a key's full value is shown only when it is made. Any plan may call it.", response: { 200: Type.Object({ keys: Type.Array(KeyInfo) }) } } }, async (request) => ({
      keys: await accounts.listKeys(callerOf(request).accountId),
    }));

    app.post(
      '/api/keys',
      {
        config: bind(ops.createKey, 'B'),
        preValidation: optionalBody,
        schema: {
          tags,
          summary: 'Create a key; its value is shown only in this response',
          description: 'Makes a new API key for the caller, which works alongside the others. Store its value from this answer: Snip keeps only a hash of it and cannot show it again.',
          body: Type.Object({ name: Type.Optional(Type.String({ maxLength: 400, description: 'What to call the key (1-100 characters), to tell keys apart' })) }),
          response: { 201: Type.Object({ ...KeyInfo.properties, apiKey: Type.String({ description: 'snip_...; store it now' }) }), ...errorResponses(400) },
        },
      },
      // The key in full, once: no browser or proxy may keep it.
      async (request, reply) =>
        reply.status(201).header('cache-control', 'no-store').send(await accounts.createKey(callerOf(request).accountId, { name: request.body.name })),
    );

    app.delete(
      '/api/keys/:keyId',
      {
        config: bind(ops.revokeKey, 'B'),
        schema: { tags, summary: 'Revoke a key', description: "Stops one of the caller's keys from working; the key that makes the call may revoke itself.", params: Type.Object({ keyId: Type.String() }), response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses(404) } },
      },
      async (request) => {
        await accounts.revokeKey(callerOf(request).accountId, request.params.keyId);
        return { success: true };
      },
    );
  };
