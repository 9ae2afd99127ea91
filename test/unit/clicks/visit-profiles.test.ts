import { describe, expect, it } from 'vitest';
import { lineOf } from '../../../src/clicks/journal.js';
import type { CapturedVisit } from '../../../src/clicks/visit.js';
import { VisitProfiles } from '../../../src/clicks/visit-profiles.js';
import { VisitorHasher } from '../../../src/clicks/visitor-hash.js';
import { FIREFOX, IPHONE } from './visits.js';

const at = Date.parse('2026-05-20T10:15:00Z');
const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';

/** A memo with a place for one address, counting how often it is asked for a place. */
function profiles() {
  const asked: string[] = [];
  const geo = {
    lookup: (ip: string) => {
      asked.push(ip);
      return ip === '81.2.69.142' ? { country: 'GB', region: 'England', city: 'London' } : null;
    },
  };
  return { memo: new VisitProfiles(new VisitorHasher('secret'), geo), asked };
}

const captured = (overrides: Partial<CapturedVisit> = {}): CapturedVisit => ({
  linkId: 'link-1',
  accountId: 'acct-1',
  ip: '81.2.69.142',
  userAgent: FIREFOX,
  referer: undefined,
  counted: false,
  ...overrides,
});

describe('VisitProfiles', () => {
  it("gives a visitor's repeat visits of a link the same profile within the UTC hour, looked up once", () => {
    const { memo, asked } = profiles();
    const first = memo.of(captured(), at);
    expect(first).toMatchObject({ linkId: 'link-1', accountId: 'acct-1', country: 'GB', city: 'London', day: '2026-05-20', hour: 10, cycle: '2026-05', allowance: 'acct-1|2026-05' });
    expect(first.sw).toEqual({ browser: 'Firefox', os: 'Windows', device: 'desktop' });
    expect(memo.of(captured(), at + 60_000)).toBe(first);
    expect(asked).toEqual(['81.2.69.142']);
  });

  it('keeps apart what a visit records differently: link, address, browser, referrer, destination, account', () => {
    const { memo } = profiles();
    const first = memo.of(captured(), at);
    const others = [
      memo.of(captured({ linkId: 'link-2' }), at),
      memo.of(captured({ ip: '8.8.8.8' }), at),
      memo.of(captured({ userAgent: IPHONE }), at),
      memo.of(captured({ referer: 'https://news.example/story' }), at),
      memo.of(captured({ destination: 'https://example.com/b' }), at),
      memo.of(captured({ accountId: 'acct-2' }), at),
    ];
    for (const other of others) expect(other).not.toBe(first);
    expect(others[1]!.visitor).not.toBe(first.visitor);
    expect(others[3]!.referrer).toBe('news.example');
    expect(others[4]!.destination).toBe('https://example.com/b');
    // The link moved to another account: its visits now draw on that account's allowance.
    expect(memo.of(captured({ accountId: 'acct-2' }), at).allowance).toBe('acct-2|2026-05');
  });

  it('starts again at the next UTC hour, so the hour, day and cycle it carries hold for every visit given it', () => {
    const { memo } = profiles();
    const before = memo.of(captured(), Date.parse('2026-05-31T23:59:59Z'));
    const after = memo.of(captured(), Date.parse('2026-06-01T00:00:00Z'));
    expect(after).not.toBe(before);
    expect(after).toMatchObject({ day: '2026-06-01', hour: 0, cycle: '2026-06' });
    // The salt is the day's: the visitor is someone else tomorrow.
    expect(after.visitor).not.toBe(before.visitor);
  });

  it("gives an agent's visits one profile whatever the address, with no visitor, address or place", () => {
    const { memo, asked } = profiles();
    const one = memo.of(captured({ userAgent: GPT, agent: 'ChatGPT' }), at);
    expect(memo.of(captured({ userAgent: GPT, agent: 'ChatGPT', ip: '8.8.8.8' }), at)).toBe(one);
    expect(one).toMatchObject({ agent: 'ChatGPT', visitor: '', address: '', country: null, referrer: null });
    expect(asked).toEqual([]);
  });

  it('does not remember a visit with an overlong user agent or referrer (made up to fill memory)', () => {
    const { memo } = profiles();
    const long = captured({ referer: `https://news.example/${'x'.repeat(2_000)}` });
    const first = memo.of(long, at);
    expect(first.referrer).toBe('news.example');
    expect(memo.of(long, at)).not.toBe(first);
  });

  it('forgets everything once it holds 10,000 profiles, and gives the same values again', () => {
    const { memo } = profiles();
    const first = memo.of(captured(), at);
    for (let i = 0; i < 10_000; i++) memo.of(captured({ linkId: `link-${i + 2}` }), at);
    const again = memo.of(captured(), at);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe('the journal line of a profiled visit', () => {
  it('holds the visit with its moment and counted flag, tabs and line breaks in free text made spaces', () => {
    const { memo } = profiles();
    const profile = memo.of(captured({ userAgent: 'odd\tagent\nname', destination: 'https://example.com/b' }), at);
    const fields = (line: string) => line.slice(0, -1).split('\t');
    expect(fields(lineOf({ profile, atMs: at, counted: false }))).toEqual([
      'link-1', 'acct-1', String(at), profile.visitor, 'GB', 'England', 'London', 'odd agent name', '', '0', '', profile.address, 'https://example.com/b',
    ]);
    expect(fields(lineOf({ profile, atMs: at + 1, counted: true }))[2]).toBe(String(at + 1));
    expect(fields(lineOf({ profile, atMs: at + 1, counted: true }))[9]).toBe('1');
  });
});
