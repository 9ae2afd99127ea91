import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { checkSchedule } from '../../../src/links/rules.js';

const now = new Date('2026-03-29T00:30:00.000Z');
const both = { expiresAt: true, activeFrom: true };

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('the schedule was accepted');
}

describe('checkSchedule', () => {
  it('normalises both times to ISO UTC, whatever offset they were written in', () => {
    expect(checkSchedule({ activeFrom: '2026-03-29T03:00:00+02:00', expiresAt: '2026-03-29T06:00:00.5-05:30' }, both, now)).toEqual({
      activeFrom: '2026-03-29T01:00:00.000Z',
      expiresAt: '2026-03-29T11:30:00.500Z',
    });
  });

  it('keeps absent or cleared times as null', () => {
    expect(checkSchedule({ expiresAt: null, activeFrom: null }, both, now)).toEqual({ expiresAt: null, activeFrom: null });
    expect(checkSchedule({ expiresAt: '2026-04-01T00:00:00Z', activeFrom: null }, both, now)).toEqual({ expiresAt: '2026-04-01T00:00:00.000Z', activeFrom: null });
  });

  it('refuses an expiry at or before now, but not a millisecond after', () => {
    expect(codeOf(() => checkSchedule({ expiresAt: now.toISOString(), activeFrom: null }, both, now))).toBe('EXPIRES_AT_IN_PAST');
    // The same instant in another zone is still now.
    expect(codeOf(() => checkSchedule({ expiresAt: '2026-03-29T01:30:00+01:00', activeFrom: null }, both, now))).toBe('EXPIRES_AT_IN_PAST');
    expect(checkSchedule({ expiresAt: '2026-03-29T00:30:00.001Z', activeFrom: null }, both, now).expiresAt).toBe('2026-03-29T00:30:00.001Z');
  });

  it('takes a start of exactly now, and refuses one a millisecond earlier', () => {
    expect(checkSchedule({ expiresAt: null, activeFrom: now.toISOString() }, both, now).activeFrom).toBe(now.toISOString());
    expect(codeOf(() => checkSchedule({ expiresAt: null, activeFrom: '2026-03-29T00:29:59.999Z' }, both, now))).toBe('ACTIVE_FROM_IN_PAST');
  });

  it('judges only the times being changed against now: a stored time already past stays', () => {
    const past = '2026-01-01T00:00:00Z';
    expect(checkSchedule({ expiresAt: '2026-12-31T00:00:00Z', activeFrom: past }, { expiresAt: true, activeFrom: false }, now)).toEqual({
      expiresAt: '2026-12-31T00:00:00.000Z',
      activeFrom: '2026-01-01T00:00:00.000Z',
    });
    expect(checkSchedule({ expiresAt: past, activeFrom: null }, { expiresAt: false, activeFrom: true }, now).expiresAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('wants the expiry strictly after the start, even when neither changed', () => {
    const unchanged = { expiresAt: false, activeFrom: false };
    expect(codeOf(() => checkSchedule({ expiresAt: '2026-05-01T00:00:00Z', activeFrom: '2026-05-01T00:00:00Z' }, both, now))).toBe('EXPIRES_BEFORE_ACTIVE');
    expect(codeOf(() => checkSchedule({ expiresAt: '2026-05-01T00:00:00Z', activeFrom: '2026-06-01T00:00:00Z' }, unchanged, now))).toBe('EXPIRES_BEFORE_ACTIVE');
    // Later on the clock face, earlier in fact: 02:00+02:00 is 00:00Z.
    expect(codeOf(() => checkSchedule({ expiresAt: '2026-05-01T02:00:00+02:00', activeFrom: '2026-05-01T01:00:00Z' }, both, now))).toBe('EXPIRES_BEFORE_ACTIVE');
  });

  // The date-time format itself is the link schema's (src/links/input.ts); what reaches here and still names no instant
  // (a leap second, a thirteenth month) is refused in the schema's words.
  it.each(['2026-06-30T23:59:60Z', '2026-13-01T00:00:00Z', 'tomorrow', '1777593600000', ''])('refuses %j as no date-time, naming the field', (text) => {
    try {
      checkSchedule({ expiresAt: text, activeFrom: null }, both, now);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('INVALID_EXPIRES_AT');
      expect((error as AppError).message).toBe('expiresAt must be an ISO 8601 date-time, like 2026-12-31T23:59:59Z');
    }
    expect(codeOf(() => checkSchedule({ expiresAt: null, activeFrom: text }, both, now))).toBe('INVALID_ACTIVE_FROM');
  });
});
