import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { AppError, appError, catalogue, errors, httpCodes, isErrorCode } from '../../src/errors.js';
import { validationCodes, validationError } from '../../src/schema/messages.js';

describe('the error catalogue', () => {
  it('gives each helper its code, the catalogue status and the default sentence', () => {
    const taken = errors.emailTaken('a@example.com');
    expect([taken.status, taken.code, taken.message]).toEqual([409, 'EMAIL_TAKEN', 'An account with a@example.com exists']);
    expect(errors.slugTaken()).toMatchObject({ status: 409, code: 'SLUG_TAKEN', message: 'This custom slug is already in use' });
    expect(appError('FOLDER_LIMIT_REACHED', 1).message).toBe('Your plan allows 1 folder; delete one or upgrade for more');
    expect(errors.linkNotFound()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('takes the status from the catalogue, given only the code', () => {
    expect(new AppError('ACCESS_DENIED', 'no').status).toBe(403);
    expect(new AppError('FOLDER_ACCESS_DENIED', 'Access denied').status).toBe(404);
    expect(new AppError('RATE_LIMITED', 'slow down', { 'Retry-After': '3' }).headers).toEqual({ 'Retry-After': '3' });
  });

  it('answers a tier refusal under the route family\'s own code, and refuses a code that is not one', () => {
    expect(errors.tierRequired('Pro', 'TIER_UPGRADE_REQUIRED')).toMatchObject({ status: 403, code: 'TIER_UPGRADE_REQUIRED' });
    expect(() => errors.tierRequired('Pro', 'NOPE')).toThrow(/not a tier code/);
  });

  it('keeps the CLI codes out of the HTTP ones', () => {
    expect(httpCodes()).not.toContain('UNKNOWN_COMMAND');
    expect(httpCodes()).toContain('SLUG_TAKEN');
    expect(httpCodes().length).toBeLessThan(Object.keys(catalogue).length);
  });
});

describe('field codes', () => {
  const Body = Type.Object({ url: Type.String(), maxClicks: Type.Optional(Type.Integer()), customSlug: Type.Optional(Type.String()) }, { additionalProperties: false });

  it('lists the codes a schema can produce', () => {
    expect(validationCodes(Body, true)).toEqual(['INVALID_BODY', 'INVALID_MAX_CLICKS', 'INVALID_SLUG', 'INVALID_URL', 'MISSING_URL']);
    expect(validationCodes(Type.Object({ period: Type.Optional(Type.String()) }), false)).toEqual(['INVALID_PERIOD']);
  });

  it('lists every code validationError gives for that schema', () => {
    const given = [
      validationError(['url'], { rule: 'required' }),
      validationError(['maxClicks'], { rule: 'atLeast', limit: 1 }),
      validationError(['customSlug'], { rule: 'maxLength', limit: 50 }),
      validationError([], { rule: 'unknownField', name: 'x' }),
    ].map((e) => e.code);
    expect(validationCodes(Body, true)).toEqual(expect.arrayContaining(given));
    for (const code of given) expect(isErrorCode(code)).toBe(true);
  });
});
