import { EventEmitter } from 'node:events';
import type { Link } from '../links/link.js';

/** What the redirect knows of a link when it announces something. */
export type LinkSummary = Pick<Link, 'id' | 'accountId' | 'code' | 'namespace' | 'slug' | 'url' | 'domain'>;

/** The domain events of spec section 6 that the link lifecycle emits. */
export interface DomainEvents {
  'link.created': { link: Link };
  'link.updated': { link: Link; previous: Link };
  'link.deleted': { link: Link };
  'link.limit_reached': { link: LinkSummary };
  /** A visitor from a country the link blocks was shown the 451 page (bots and HEAD requests are not announced). */
  'link.geo_blocked': { link: LinkSummary; country: string };
  'link.expired': { link: Link };
  /** A link's destination was scanned; the redirect drops what it cached of the link. */
  'link.scanned': { link: Pick<Link, 'id' | 'code' | 'namespace' | 'slug'>; status: 'safe' | 'warning' | 'unsafe' };
  /** A custom domain was removed; its links now use the default host. */
  'domain.deleted': { hostname: string };
  /** A custom domain was activated, changed or removed: what requests on it see changed. */
  'domain.changed': { hostname: string };
  /** A webhook was created, changed or deleted: who wants the redirect's events may have changed. */
  'webhooks.changed': Record<string, never>;
  /** An account and everything it owned are gone (`users delete`). */
  'account.deleted': { accountId: string };
  /** An affiliate program was opened or closed: its partner links' click ids start or stop. */
  'affiliate.program_updated': { programId: string };
  /** A recorded click (bots and HEAD requests never make one). */
  'link.click': {
    linkId: string;
    accountId: string;
    at: string;
    country: string | null;
    device: string;
    referrer: string | null;
    userAgent: string;
  };
}

export type EventName = keyof DomainEvents;

/** One in-process bus; listeners run synchronously, so they must stay cheap (queue real work elsewhere). */
export class EventBus {
  private readonly emitter = new EventEmitter();

  emit<E extends EventName>(event: E, payload: DomainEvents[E]): void {
    this.emitter.emit(event, payload);
  }

  /** Whether anyone listens, so emitters can skip building payloads nobody reads. */
  listening(event: EventName): boolean {
    return this.emitter.listenerCount(event) > 0;
  }

  on<E extends EventName>(event: E, listener: (payload: DomainEvents[E]) => void): void {
    this.emitter.on(event, listener);
  }
}
