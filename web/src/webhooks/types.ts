import type { Answer } from '../api';

/** The shapes of B's /api/webhooks answers. */
export type WebhookList = Answer<'/api/webhooks', 'get'>;
export type Webhook = WebhookList['webhooks'][number];
/** The create answer: the webhook and its signing secret, shown only here. */
export type CreatedWebhook = Answer<'/api/webhooks', 'post'>;
/** A test delivery's outcome: statusCode 0 when no answer came. */
export type TestResult = Answer<'/api/webhooks/{webhookId}/test', 'post'>;
export type DeliveryPage = Answer<'/api/webhooks/{webhookId}/deliveries', 'get'>;
export type Delivery = DeliveryPage['deliveries'][number];
export type DeliveryStatus = Delivery['status'];

/** The event names the API accepts (its create schema's list), each with what it reports. */
export const EVENTS: { name: string; what: string }[] = [
  { name: 'link.created', what: 'A link was created' },
  { name: 'link.updated', what: 'A link\'s destination or settings changed' },
  { name: 'link.deleted', what: 'A link was permanently deleted' },
  { name: 'link.click', what: 'A visitor clicked a short link' },
  { name: 'link.expired', what: 'A link reached its expiry time' },
  { name: 'link.limit_reached', what: 'A link hit its click limit and stopped redirecting' },
  { name: 'link.geo_blocked', what: 'A visitor was blocked by geo rules' },
];

export const WEBHOOKS_KEY = ['webhooks'];

/** A webhook's own routes take its id as one path parameter. */
export const webhookParams = (webhookId: string) => ({ path: { webhookId } });
