import { describe, expect, it } from 'vitest';
import { parseShortPath } from '../../../src/links/rules.js';

describe('parseShortPath', () => {
  it('reads six letters or digits as a generated code, case kept', () => {
    expect(parseShortPath('aB3dE9')).toEqual({ code: 'aB3dE9' });
  });

  it('reads <prefix>/<slug> as a custom slug: the namespace in lower case, the slug as written', () => {
    expect(parseShortPath('Acme/Spring-Sale')).toEqual({ namespace: 'acme', slug: 'Spring-Sale' });
  });

  it('takes a slug of any length here: the slug rules are the creator\'s, a lookup only finds or misses', () => {
    expect(parseShortPath('acme/x')).toEqual({ namespace: 'acme', slug: 'x' });
  });

  it.each(['', 'abc12', 'abc1234', 'abc-12', 'ab c12', 'acme/', '/slug', 'a/b/c', 'acme//slug', 'ünïcø'])('names no link for %j', (path) => {
    expect(() => parseShortPath(path)).toThrow(expect.objectContaining({ code: 'NOT_FOUND', status: 404 }));
  });
});
