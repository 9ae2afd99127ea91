// The accounts' events, registered with the bus, which knows no feature.
declare module '../events/bus.js' {
  interface DomainEvents {
    /** An account and everything it owned are gone (`users delete`). */
    'account.deleted': { accountId: string };
  }
}

export {};
