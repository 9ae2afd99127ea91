import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENTS } from '../../webhooks/events.js';
import { tool } from '../tool.js';
import { WEBHOOK_OPERATIONS as ops } from '../../webhooks/operations.js';
import { CreatedWebhook, TestResult, WebhookList, WebhookObject } from '../../webhooks/routes.js';
import { SuccessMessage } from '../../schema/shapes.js';

// Where Snip will send the account's link events is outside it: a client may want to ask before that changes.
const sendsOutside = { openWorldHint: true };

const events = Type.Array(Type.String(), { description: `Full event names: ${WEBHOOK_EVENTS.join(', ')}` });

export const webhookTools = [
  tool({
    name: 'list_webhooks',
    title: 'List webhooks',
    scope: 'webhooks:read',
    description: 'Your webhooks and your plan’s webhook limit.',
    operation: ops.list,
    input: {},
    output: WebhookList,
    run: async (_args, { core, caller }) => core.webhooks.list(caller),
  }),
  tool({
    name: 'create_webhook',
    title: 'Create a webhook',
    scope: 'webhooks:write',
    description: 'Subscribe an HTTPS endpoint to link events. The signing secret (X-Snip-Signature, HMAC-SHA256) is shown once.',
    operation: ops.create,
    input: { url: Type.String({ description: 'HTTPS endpoint' }), events, name: Type.Optional(Type.String()), secret: Type.Optional(Type.String({ description: 'Signing secret; generated when absent' })) },
    output: CreatedWebhook,
    hints: sendsOutside,
    run: async (input, { core, caller }) => core.webhooks.create(caller, input),
  }),
  tool({
    name: 'update_webhook',
    title: 'Update a webhook',
    scope: 'webhooks:write',
    description: 'Change a webhook’s URL, events or name, or enable/disable it.',
    operation: ops.update,
    input: { webhookId: Type.String(), url: Type.Optional(Type.String()), events: Type.Optional(events), name: Type.Optional(Type.String()), enabled: Type.Optional(Type.Boolean()) },
    output: WebhookObject,
    hints: sendsOutside,
    run: async ({ webhookId, ...input }, { core, caller }) => core.webhooks.update(caller, webhookId, input),
  }),
  tool({
    name: 'test_webhook',
    title: 'Send a test webhook',
    scope: 'webhooks:write',
    description: 'Send a signed test delivery to a webhook now and report the result.',
    operation: ops.test,
    input: { webhookId: Type.String() },
    output: TestResult,
    // It POSTs to the webhook's endpoint now; each call sends another delivery.
    hints: { openWorldHint: true },
    run: async ({ webhookId }, { core, caller }) => core.webhooks.test(caller, webhookId),
  }),
  tool({
    name: 'delete_webhook',
    title: 'Delete a webhook',
    scope: 'webhooks:write',
    description: 'Delete a webhook and its pending deliveries.',
    operation: ops.delete,
    input: { webhookId: Type.String() },
    output: SuccessMessage,
    run: async ({ webhookId }, { core, caller }) => {
      await core.webhooks.delete(caller, webhookId);
      return { success: true, message: 'Webhook deleted' };
    },
  }),
];
