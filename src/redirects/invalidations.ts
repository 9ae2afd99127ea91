import type { EventBus } from '../events/bus.js';
import type { Invalidation } from '../runtime/cache-sync.js';
import { cacheKeysOf } from './link-cache.js';

/**
 * What each change of this instance makes every other instance drop from its caches (src/runtime/cache-sync.ts
 * carries it through Redis): the redirect cache's keys of a changed link, a changed custom domain, the accounts that
 * want the redirect's webhook events.
 */
export function announceInvalidations(bus: EventBus, publish: (invalidation: Invalidation) => void): void {
  bus.on('link.created', ({ link }) => publish({ links: cacheKeysOf(link) }));
  bus.on('link.updated', ({ link, previous }) => publish({ links: [...cacheKeysOf(previous), ...cacheKeysOf(link)] }));
  bus.on('link.deleted', ({ link }) => publish({ links: cacheKeysOf(link) }));
  bus.on('link.scanned', ({ link }) => publish({ links: cacheKeysOf(link) }));
  bus.on('domain.deleted', ({ hostname }) => publish({ links: 'all', domain: hostname }));
  bus.on('domain.changed', ({ hostname }) => publish({ domain: hostname }));
  bus.on('affiliate.program_updated', () => publish({ links: 'all' }));
  bus.on('account.deleted', () => publish({ links: 'all', domain: 'all', webhooks: true }));
  bus.on('webhooks.changed', () => publish({ webhooks: true }));
}
