import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';
import type { ErrorCode } from '../errors.js';

/** A webhook named by the caller that is not theirs (or does not exist): one code, so ids are not probed. */
const LOOKUP_ERRORS = ['WEBHOOK_NOT_FOUND'] as const satisfies ErrorCode[];

/** What the service checks in a webhook's fields (address guard, events, name, secret) beyond their schema. */
const FIELD_ERRORS = ['INVALID_URL', 'INVALID_EVENTS', 'INVALID_NAME', 'INVALID_SECRET', 'DUPLICATE_WEBHOOK'] as const satisfies ErrorCode[];

/** The webhook operations (src/access/operation.ts): A's /api/v1/webhooks, B's /api/webhooks (routes.ts) and MCP bind them. */
export const WEBHOOK_OPERATIONS = {
  list: operation({ id: 'listWebhooks', policy: POLICIES.apiAccess, errors: [] }),
  create: operation({ id: 'createWebhook', policy: POLICIES.apiAccess, errors: [...FIELD_ERRORS, 'WEBHOOK_LIMIT_REACHED'] }),
  get: operation({ id: 'getWebhook', policy: POLICIES.apiAccess, errors: LOOKUP_ERRORS }),
  update: operation({ id: 'updateWebhook', policy: POLICIES.apiAccess, errors: [...LOOKUP_ERRORS, ...FIELD_ERRORS, 'INVALID_ENABLED', 'INVALID_BODY'] }),
  delete: operation({ id: 'deleteWebhook', policy: POLICIES.apiAccess, errors: LOOKUP_ERRORS }),
  test: operation({ id: 'testWebhook', policy: POLICIES.apiAccess, errors: LOOKUP_ERRORS }),
  listDeliveries: operation({ id: 'listWebhookDeliveries', policy: POLICIES.apiAccess, errors: LOOKUP_ERRORS }),
};
