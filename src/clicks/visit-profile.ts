import { cycleOf } from '../usage/tracked-clicks.js';
import { dayOf } from './day.js';
import { software, type Software } from './user-agent.js';
import type { Visit } from './visit.js';

/**
 * What a visit shares with every other visit of the same visitor to the same link in the same UTC hour: all of a
 * `Visit` but its moment and whether the redirect counted it, and what is derived from it once (the software, the
 * day, hour and billing cycle, the allowance it draws on). The recorder remembers profiles (src/clicks/visit-profiles.ts),
 * so a repeat visit is folded by the profile's identity, and no key is built for it.
 */
export interface VisitProfile extends Omit<Visit, 'atMs' | 'counted'> {
  sw: Software;
  day: string;
  /** The UTC hour, 0-23. */
  hour: number;
  cycle: string;
  /** `accountId|cycle`: the tracked-click allowance the visit draws on (src/clicks/open-batch.ts). */
  allowance: string;
  /** The visit's journal line around its moment and counted flag, made when first journaled (src/clicks/journal.ts). */
  line?: { head: string; tails: readonly [string, string] };
  /** Its keys in a batch, made when first committed (src/clicks/click-batch.ts). */
  keys?: { group: string; visitor: string; address: string };
}

/** One visit as the recorder folds it: its profile and what is its own. */
export interface FoldedVisit {
  profile: VisitProfile;
  atMs: number;
  /** True when the redirect already counted the click on the link (capped links count synchronously). */
  counted: boolean;
}

/** The UTC hour of a time, without a Date per visit. */
export const hourOf = (ms: number): number => Math.floor(ms / 3_600_000) % 24;

export const allowanceKey = (accountId: string, cycle: string): string => `${accountId}|${cycle}`;

/** The profile of a visit with these fields at `atMs` (valid for that UTC hour). */
export function profileOf(fields: Omit<Visit, 'atMs' | 'counted'>, atMs: number): VisitProfile {
  const cycle = cycleOf(atMs);
  return {
    linkId: fields.linkId,
    accountId: fields.accountId,
    visitor: fields.visitor,
    address: fields.address,
    country: fields.country,
    region: fields.region,
    city: fields.city,
    userAgent: fields.userAgent,
    referrer: fields.referrer,
    destination: fields.destination,
    agent: fields.agent,
    sw: software(fields.userAgent),
    day: dayOf(atMs),
    hour: hourOf(atMs),
    cycle,
    allowance: allowanceKey(fields.accountId, cycle),
  };
}

/** A visit read back (a journal, an import) as the recorder folds it, with a profile of its own. */
export const foldedOf = (v: Visit): FoldedVisit => ({ profile: profileOf(v, v.atMs), atMs: v.atMs, counted: v.counted });

