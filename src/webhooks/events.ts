import { errors } from '../errors.js';

/** The seven webhook events of spec section 6, by their full names (the only names accepted). */
export const WEBHOOK_EVENTS = [
  'link.click',
  'link.created',
  'link.updated',
  'link.deleted',
  'link.expired',
  'link.limit_reached',
  'link.geo_blocked',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const isWebhookEvent = (name: unknown): name is WebhookEvent => (WEBHOOK_EVENTS as readonly unknown[]).includes(name);

/** A non-empty list of full event names, deduplicated and sorted; anything else is INVALID_EVENTS. */
export function checkEvents(value: unknown): WebhookEvent[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw errors.invalidEvents(`Choose at least one event to send: ${WEBHOOK_EVENTS.join(', ')}`);
  }
  const unknown = value.filter((name) => !isWebhookEvent(name));
  if (unknown.length > 0) {
    const shown = unknown.map((n) => JSON.stringify(n)).join(', ');
    const verb = unknown.length === 1 ? 'is not an event' : 'are not events';
    throw errors.invalidEvents(`${shown} ${verb} Snip sends; choose from ${WEBHOOK_EVENTS.join(', ')} (full names, such as link.click)`);
  }
  return [...new Set(value as WebhookEvent[])].sort();
}

// Registered with the bus, which knows no feature.
declare module '../events/bus.js' {
  interface DomainEvents {
    /** A webhook was created, changed or deleted: who wants the redirect's events may have changed. */
    'webhooks.changed': Record<string, never>;
  }
}
