import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { DateTime, errorResponses, Nullable, Pagination, SuccessMessage } from '../schema/shapes.js';
import { WEBHOOK_EVENTS } from './events.js';
import { WEBHOOK_OPERATIONS as ops } from './operations.js';
import type { WebhookService } from './service.js';
import { named } from '../schema/names.js';

export const WebhookObject = named('Webhook', 'A webhook: an endpoint and the events it is sent', Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'HTTPS endpoint receiving POST requests' }),
  name: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean({ description: 'False: nothing is sent' }),
  createdAt: DateTime(),
  lastDeliveryAt: Nullable(DateTime()),
  lastStatus: Nullable(Type.Integer({ description: "The receiver's HTTP status at the last attempt; null when none came" })),
}));

export const CreatedWebhook = Type.Object({
  ...WebhookObject.properties,
  secret: Type.String({ description: 'Signing secret for X-Snip-Signature; shown only in this response' }),
});

export const WebhookList = Type.Object({ webhooks: Type.Array(WebhookObject), limit: Nullable(Type.Integer()) });

const Events = Type.Array(Type.String(), { description: `Full event names: ${WEBHOOK_EVENTS.join(', ')}` });

const CreateBody = Type.Object({
  url: Type.String({ description: 'HTTPS endpoint' }),
  events: Events,
  name: Type.Optional(Type.String({ description: 'Friendly name (defaults to the host name)' })),
  secret: Type.Optional(Type.String({ description: 'Signing secret; Snip generates one when absent' })),
});

const UpdateBody = Type.Object(
  {
    url: Type.Optional(Type.String()),
    events: Type.Optional(Events),
    name: Type.Optional(Type.String()),
    enabled: Type.Optional(Type.Boolean()),
  },
  { minProperties: 1 },
);

const Delivery = Type.Object({
  id: Type.String({ description: 'Also sent as X-Snip-Delivery' }),
  event: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('abandoned')]),
  attempts: Type.Integer(),
  lastStatus: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  createdAt: DateTime(),
  nextAttemptAt: Nullable(DateTime('When the next retry is due (pending only)')),
  finishedAt: Nullable(DateTime()),
});

export const TestResult = Type.Object({
  success: Type.Boolean(),
  statusCode: Type.Integer({ description: "The receiver's status; 0 when no answer came" }),
  durationMs: Type.Integer(),
  error: Nullable(Type.String()),
});

const Params = Type.Object({ webhookId: Type.String() });

/** The webhook routes, identical under A's /api/v1/webhooks and B's /api/webhooks. */
export const webhookRoutes =
  (webhooks: WebhookService): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const { base, surface } of [
      { base: '/api/v1/webhooks', surface: 'A' },
      { base: '/api/webhooks', surface: 'B' },
    ] as const) {
      const tags = [`webhooks (${surface})`];

      app.get(base, { config: bind(ops.list, surface), schema: { tags, summary: "The caller's webhooks and the plan's maximum", description: "Lists the caller's webhooks with their events, state and last delivery, and how many webhooks the plan allows.", response: { 200: WebhookList } } }, async (request) =>
        webhooks.list(callerOf(request)),
      );

      app.post(
        base,
        {
          config: bind(ops.create, surface),
          schema: { tags, summary: 'Subscribe an endpoint to events', description: 'Subscribes an HTTPS endpoint to link events (link.created, link.click and others). Each delivery is signed with the secret in X-Snip-Signature; the secret is shown only in this answer.', body: CreateBody, response: { 201: CreatedWebhook, ...errorResponses(400, 403) } },
        },
        // The signing secret, once: no browser or proxy may keep it.
        async (request, reply) => reply.status(201).header('cache-control', 'no-store').send(await webhooks.create(callerOf(request), request.body)),
      );

      app.get(
        `${base}/:webhookId`,
        { config: bind(ops.get, surface), schema: { tags, summary: 'One webhook', description: "Answers one of the caller's webhooks: its endpoint, events, state and last delivery.", params: Params, response: { 200: WebhookObject, ...errorResponses(404) } } },
        async (request) => webhooks.get(callerOf(request), request.params.webhookId),
      );

      app.patch(
        `${base}/:webhookId`,
        {
          config: bind(ops.update, surface),
          schema: { tags, summary: 'Change URL, events, name or enabled', description: "Changes one of the caller's webhooks: its endpoint, events, name, or whether it is enabled; only the fields sent change.", params: Params, body: UpdateBody, response: { 200: WebhookObject, ...errorResponses(400, 404) } },
        },
        async (request) => webhooks.update(callerOf(request), request.params.webhookId, request.body),
      );

      app.delete(
        `${base}/:webhookId`,
        { config: bind(ops.delete, surface), schema: { tags, summary: 'Delete a webhook and its pending deliveries', description: "Deletes one of the caller's webhooks; the deliveries still waiting to be sent are dropped.", params: Params, response: { 200: SuccessMessage, ...errorResponses(404) } } },
        async (request) => {
          await webhooks.delete(callerOf(request), request.params.webhookId);
          return { success: true, message: 'Webhook deleted' };
        },
      );

      app.post(
        `${base}/:webhookId/test`,
        { config: bind(ops.test, surface), schema: { tags, summary: 'Send a signed test payload now', description: "Sends a signed test event to one of the caller's webhooks now, and answers the status the endpoint gave and how long it took, to check the endpoint and its signature check.", params: Params, response: { 200: TestResult, ...errorResponses(404) } } },
        async (request) => webhooks.test(callerOf(request), request.params.webhookId),
      );

      app.get(
        `${base}/:webhookId/deliveries`,
        {
          config: bind(ops.listDeliveries, surface),
          schema: {
            tags,
            summary: 'The delivery log, newest first',
            description: "Lists the deliveries of one of the caller's webhooks, a page at a time, newest first: the event, its state, the attempts made and the last answer, and when the next retry is due.",
            params: Params,
            querystring: Pagination,
            response: { 200: Type.Object({ deliveries: Type.Array(Delivery), limit: Type.Integer(), offset: Type.Integer() }), ...errorResponses(400, 404) },
          },
        },
        async (request) => webhooks.deliveries(callerOf(request), request.params.webhookId, request.query),
      );
    }
  };
