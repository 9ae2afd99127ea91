/** Time as a port, so tests can move it without touching the database. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
