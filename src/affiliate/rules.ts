import { checkName } from '../names.js';
import { validationError } from '../schema/messages.js';
import { checkDestination } from '../links/rules.js';

export const COMMISSION_TYPES = ['CPC', 'CPA'] as const;
export type CommissionType = (typeof COMMISSION_TYPES)[number];
export const PROGRAM_STATUSES = ['active', 'closed'] as const;
export type ProgramStatus = (typeof PROGRAM_STATUSES)[number];

export const NAME_MAX = 100;
/** 10,000 USD per click or conversion: far above any real commission, well inside every integer type. */
export const COMMISSION_MAX_CENTS = 1_000_000;
/** A reported sale amount: up to 10 million USD. */
export const AMOUNT_MAX_CENTS = 1_000_000_000;

export interface ProgramInput {
  name?: unknown;
  url?: unknown;
  commissionType?: unknown;
  commissionCents?: unknown;
  public?: unknown;
  status?: unknown;
}

export const checkProgramName = (raw: unknown): string => checkName(raw, NAME_MAX);

export function checkCommissionType(raw: unknown): CommissionType {
  if (raw === undefined || raw === null) throw validationError(['commissionType'], { rule: 'required' });
  if (typeof raw !== 'string' || !(COMMISSION_TYPES as readonly string[]).includes(raw)) {
    throw validationError(['commissionType'], { rule: 'choice', values: [...COMMISSION_TYPES] });
  }
  return raw as CommissionType;
}

export function checkCents(raw: unknown, field: 'commissionCents' | 'amountCents', min: number, max: number): number {
  if (raw === undefined || raw === null) throw validationError([field], { rule: 'required' });
  if (typeof raw !== 'number' || !Number.isInteger(raw)) throw validationError([field], { rule: 'type', type: 'integer' });
  if (raw < min) throw validationError([field], { rule: 'atLeast', limit: min });
  if (raw > max) throw validationError([field], { rule: 'atMost', limit: max });
  return raw;
}

export function checkBoolean(raw: unknown, field: 'public'): boolean {
  if (typeof raw !== 'boolean') throw validationError([field], { rule: 'type', type: 'boolean' });
  return raw;
}

export function checkStatus(raw: unknown): ProgramStatus {
  if (typeof raw !== 'string' || !(PROGRAM_STATUSES as readonly string[]).includes(raw)) throw validationError(['status'], { rule: 'choice', values: [...PROGRAM_STATUSES] });
  return raw as ProgramStatus;
}

export const checkProgramUrl = (raw: unknown, ownHostnames: ReadonlySet<string>): string => checkDestination(raw, ownHostnames);
