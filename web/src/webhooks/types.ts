/** The shapes of B's /api/webhooks answers. */

export interface Webhook {
  id: string;
  url: string;
  name: string;
  events: string[];
  enabled: boolean;
  createdAt: string;
  lastDeliveryAt: string | null;
  lastStatus: number | null;
}

export interface WebhookList {
  webhooks: Webhook[];
  /** The plan's maximum; null: no maximum. */
  limit: number | null;
}

export interface CreatedWebhook extends Webhook {
  /** Shown only in the create answer. */
  secret: string;
}

export interface TestResult {
  success: boolean;
  /** 0 when no answer came. */
  statusCode: number;
  durationMs: number | null;
  error?: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'abandoned';

export interface Delivery {
  id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  finishedAt: string | null;
}

export interface DeliveryPage {
  deliveries: Delivery[];
  limit: number;
  offset: number;
}

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

export const webhookPath = (id: string, rest = ''): string => `/api/webhooks/${encodeURIComponent(id)}${rest}`;
