import { EventEmitter } from 'node:events';

/**
 * The domain events, by name and payload. The bus knows no feature: each capability registers the events it emits
 * by augmenting this interface in its own `events.ts` (src/links/events.ts, src/domains/events.ts, ...), so an
 * emitter or a listener of an event nobody declared does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface DomainEvents {}

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
