// The affiliate programs' events, registered with the bus, which knows no feature.
declare module '../events/bus.js' {
  interface DomainEvents {
    /** An affiliate program was opened or closed: its partner links' click ids start or stop. */
    'affiliate.program_updated': { programId: string };
  }
}

export {};
