import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { validationError, type BrokenRule, type FieldPath } from '../../../src/schema/messages.js';

const said = (path: FieldPath, broken: BrokenRule, whole?: string) => {
  const error = validationError(path, broken, whole);
  expect(error).toBeInstanceOf(AppError);
  expect(error.status).toBe(400);
  return `${error.code}: ${error.message}`;
};

describe('validationError', () => {
  it.each<[BrokenRule, string]>([
    [{ rule: 'choice', values: ['day', 'week', 'month'] }, 'INVALID_PERIOD: period must be one of day, week, month'],
    [{ rule: 'choice', values: [true] }, 'INVALID_PERIOD: period must be true'],
    [{ rule: 'atLeast', limit: 1 }, 'INVALID_PERIOD: period must be at least 1'],
    [{ rule: 'atMost', limit: 365 }, 'INVALID_PERIOD: period must be at most 365'],
    [{ rule: 'above', limit: 0 }, 'INVALID_PERIOD: period must be greater than 0'],
    [{ rule: 'below', limit: 10 }, 'INVALID_PERIOD: period must be less than 10'],
    [{ rule: 'minLength', limit: 1 }, 'INVALID_PERIOD: period must not be empty'],
    [{ rule: 'minLength', limit: 3 }, 'INVALID_PERIOD: period must be at least 3 characters'],
    [{ rule: 'maxLength', limit: 1 }, 'INVALID_PERIOD: period must be at most 1 character'],
    [{ rule: 'minItems', limit: 1 }, 'INVALID_PERIOD: period must list at least 1 item'],
    [{ rule: 'maxItems', limit: 250 }, 'INVALID_PERIOD: period must list at most 250 items'],
    [{ rule: 'type', type: 'integer' }, 'INVALID_PERIOD: period must be an integer'],
    [{ rule: 'type', type: 'string,null' }, 'INVALID_PERIOD: period must be a string or null'],
    [{ rule: 'type', type: 'boolean' }, 'INVALID_PERIOD: period must be true or false'],
    [{ rule: 'format', format: 'date-time' }, 'INVALID_PERIOD: period must be an ISO 8601 date-time, like 2026-12-31T23:59:59Z'],
    [{ rule: 'format', format: 'ipv4' }, 'INVALID_PERIOD: period must be a valid ipv4'],
    [{ rule: 'pattern', pattern: '^[A-Za-z]{2}$' }, 'INVALID_PERIOD: period must be a two-letter country code, like DE'],
    [{ rule: 'pattern', pattern: '^x+$' }, 'INVALID_PERIOD: period has an invalid format'],
    [{ rule: 'pattern' }, 'INVALID_PERIOD: period has an invalid format'],
    [{ rule: 'invalid' }, 'INVALID_PERIOD: period is invalid'],
  ])('says %j of a field in one sentence', (broken, expected) => {
    expect(said(['period'], broken)).toBe(expected);
  });

  it('calls a missing field MISSING_<FIELD>, in upper snake case', () => {
    expect(said(['expiresAt'], { rule: 'required' })).toBe('MISSING_EXPIRES_AT: expiresAt is required');
    expect(said(['utm_source'], { rule: 'required' })).toBe('MISSING_UTM_SOURCE: utm_source is required');
    expect(said(['webhook2Url'], { rule: 'required' })).toBe('MISSING_WEBHOOK2_URL: webhook2Url is required');
  });

  it('names some fields by what they are: a slug, the destination, a short path', () => {
    expect(said(['customSlug'], { rule: 'maxLength', limit: 50 })).toBe('INVALID_SLUG: customSlug must be at most 50 characters');
    expect(said(['long'], { rule: 'type', type: 'string' })).toBe('INVALID_URL: long must be a string');
    expect(said(['shortPath'], { rule: 'minLength', limit: 1 })).toBe('INVALID_SHORT_PATH: shortPath must not be empty');
  });

  it('refuses a missing destination in the words every surface has always used', () => {
    expect(said(['url'], { rule: 'required' })).toBe('MISSING_URL: URL is required');
    expect(said(['long'], { rule: 'required' })).toBe('MISSING_URL: URL is required');
  });

  it('codes a problem deep in a field by the top-level field, and says exactly where it is', () => {
    expect(said(['links', 0, 'url'], { rule: 'required' })).toBe('INVALID_LINKS: links[0].url is required');
    expect(said(['notFoundPage', 'type'], { rule: 'choice', values: ['text', 'redirect'] })).toBe(
      'INVALID_NOT_FOUND_PAGE: notFoundPage.type must be one of text, redirect',
    );
    expect(said(['blockedCountries', 3], { rule: 'pattern', pattern: '^[A-Za-z]{2}$' })).toBe(
      'INVALID_BLOCKED_COUNTRIES: blockedCountries[3] must be a two-letter country code, like DE',
    );
  });

  it('speaks of the input as a whole when the rule is about all of it', () => {
    expect(said([], { rule: 'unknownField', name: 'colour' })).toBe('INVALID_BODY: Unknown field "colour"');
    expect(said([], { rule: 'minFields', limit: 1 })).toBe('INVALID_BODY: Give at least one field to change');
    expect(said([], { rule: 'type', type: 'object' }, 'The body')).toBe('INVALID_BODY: The body must be an object');
    expect(said([], { rule: 'type', type: 'object' }, 'The arguments')).toBe('INVALID_BODY: The arguments must be an object');
    expect(said([], { rule: 'minFields', limit: 2 })).toBe('INVALID_BODY: The request must have at least 2 fields');
    expect(said([0], { rule: 'type', type: 'object' })).toBe('INVALID_BODY: The request must be an object');
  });

  it('names an unknown field inside a field', () => {
    expect(said(['appLinks', 'ios'], { rule: 'unknownField', name: 'scheme' })).toBe('INVALID_APP_LINKS: appLinks.ios has an unknown field "scheme"');
  });
});
