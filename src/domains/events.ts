// The custom domains' events, registered with the bus, which knows no feature.
declare module '../events/bus.js' {
  interface DomainEvents {
    /** A custom domain was removed; its links now use the default host. */
    'domain.deleted': { hostname: string };
    /** A custom domain was activated, changed or removed: what requests on it see changed. */
    'domain.changed': { hostname: string };
  }
}

export {};
