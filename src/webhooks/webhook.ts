import type { WebhookEvent } from './events.js';
import type { DeliveryRow, WebhookRow } from './repository.js';

/** A webhook and its deliveries as every surface presents them, and the inputs that make and change one. */
export interface Webhook {
  id: string;
  url: string;
  name: string;
  events: WebhookEvent[];
  enabled: boolean;
  createdAt: string;
  lastDeliveryAt: string | null;
  lastStatus: number | null;
}

export interface CreateWebhookInput {
  url: unknown;
  events: unknown;
  name?: unknown;
  secret?: unknown;
}

export interface UpdateWebhookInput {
  url?: unknown;
  events?: unknown;
  name?: unknown;
  enabled?: unknown;
}

export interface Delivery {
  id: string;
  event: string;
  status: DeliveryRow['status'];
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  finishedAt: string | null;
}

export interface TestResult {
  success: boolean;
  statusCode: number;
  durationMs: number;
  error: string | null;
}

export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  name: row.name,
  events: row.events.split(',') as WebhookEvent[],
  enabled: Number(row.enabled) === 1,
  createdAt: row.created_at,
  lastDeliveryAt: row.last_delivery_at,
  lastStatus: row.last_status === null ? null : Number(row.last_status),
});

export const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  event: row.event,
  status: row.status,
  attempts: Number(row.attempts),
  lastStatus: row.last_status === null ? null : Number(row.last_status),
  lastError: row.last_error,
  createdAt: row.created_at,
  nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
  finishedAt: row.finished_at,
});
