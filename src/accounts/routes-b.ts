import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { DateTime, errorResponses, Nullable } from '../http/schemas.js';
import { TIERS } from './plans.js';
import { ACCOUNT_OPERATIONS as ops } from './operations.js';
import type { AccountsService } from './service.js';

const Limit = (description: string) => Nullable(Type.Integer({ description: `${description}; null means unlimited` }));

const Profile = Type.Object({
  id: Type.String(),
  email: Type.String(),
  tier: Type.Union(TIERS.map((t) => Type.Literal(t))),
  namespace: Nullable(Type.String({ description: 'Prefix of custom-slug links: <namespace>/<slug>' })),
  createdAt: DateTime(),
  limits: Type.Object({
    apiAccess: Type.Boolean(),
    customSlugs: Type.Boolean(),
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
});

const NamespaceInfo = Type.Object({
  namespace: Type.String(),
  current: Type.Boolean({ description: 'True for the prefix new custom-slug links get' }),
  linkCount: Type.Integer({ description: 'Links under this prefix; only a prefix without links can be released' }),
  createdAt: DateTime(),
});

const tags = ['account (B)'];

/** Description B's account groups: /api/user and /api/keys. */
export const accountRoutesB =
  (accounts: AccountsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/api/user', { config: bind(ops.getUser, 'B'), schema: { tags, summary: "The caller's profile and plan limits", response: { 200: Profile } } }, async (request) =>
      accounts.profile(callerOf(request).accountId),
    );

    app.put(
      '/api/user/namespace',
      {
        config: bind(ops.claimNamespace, 'B'),
        schema: {
          tags,
          summary: 'Claim a namespace (the prefix of custom-slug links)',
          body: Type.Object({ namespace: Type.String({ description: '3-30 characters: a-z, 0-9, inner hyphens' }) }),
          response: { 200: Type.Object({ namespace: Type.String() }), ...errorResponses(400, 409) },
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
          params: Type.Object({ namespace: Type.String() }),
          response: { 200: Type.Object({ success: Type.Boolean(), namespace: Type.String() }), ...errorResponses(400, 404, 409) },
        },
      },
      async (request) => ({ success: true, ...(await accounts.releaseNamespace(callerOf(request).accountId, request.params.namespace)) }),
    );

    app.get('/api/keys', { config: bind(ops.listKeys, 'B'), schema: { tags, summary: "The caller's active keys", response: { 200: Type.Object({ keys: Type.Array(KeyInfo) }) } } }, async (request) => ({
      keys: await accounts.listKeys(callerOf(request).accountId),
    }));

    app.post(
      '/api/keys',
      {
        config: bind(ops.createKey, 'B'),
        schema: {
          tags,
          summary: 'Create a key; its value is shown only in this response',
          response: { 201: Type.Object({ ...KeyInfo.properties, apiKey: Type.String({ description: 'snip_...; store it now' }) }) },
        },
      },
      // The key in full, once: no browser or proxy may keep it.
      async (request, reply) => reply.status(201).header('cache-control', 'no-store').send(await accounts.createKey(callerOf(request).accountId)),
    );

    app.delete(
      '/api/keys/:keyId',
      {
        config: bind(ops.revokeKey, 'B'),
        schema: { tags, summary: 'Revoke a key', params: Type.Object({ keyId: Type.String() }), response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses(404) } },
      },
      async (request) => {
        await accounts.revokeKey(callerOf(request).accountId, request.params.keyId);
        return { success: true };
      },
    );
  };
