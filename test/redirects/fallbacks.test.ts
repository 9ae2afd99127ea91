import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { PREVIEW_BOTS, UA, visitors } from './routing-visitors.js';

/**
 * What a link shows besides its destination: the fallback of an ended link (expiredUrl) and the social preview
 * that link-preview bots read while people are redirected as usual.
 */

const DEST = 'https://example.com/landing';
const OVER = 'https://example.com/campaign-over';

describe(`expiredUrl (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const { create, visit, goes, clicks, details, resolve } = visitors(t, () => owner);
  const soon = () => new Date(t.clock.now().getTime() + 60_000).toISOString();

  it('sends visitors of an expired link there with a 302, HEAD too; without one, 410', async () => {
    const withFallback = await create({ url: DEST, expiresAt: soon(), expiredUrl: OVER });
    const without = await create({ url: DEST, expiresAt: soon() });
    expect(await goes(withFallback)).toBe(DEST);
    expect((await details(withFallback)).expiredUrl).toBe(OVER);
    t.clock.advance(61_000);
    expect(await goes(withFallback)).toBe(OVER);
    expect(await goes(withFallback, { method: 'HEAD' })).toBe(OVER);
    expect((await visit(without)).statusCode).toBe(410);
    expect(await clicks(withFallback)).toBe(1);
    const cleared = await t.as(owner, { method: 'PATCH', url: `/api/v1/links/${withFallback}`, payload: { expiredUrl: null } });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await visit(withFallback)).statusCode).toBe(410);
  });

  it('sends visitors of a used-up link (maxClicks) there, without counting them', async () => {
    const code = await create({ url: DEST, maxClicks: 2, expiredUrl: OVER });
    expect(await goes(code)).toBe(DEST);
    expect(await goes(code, { ua: UA.iphone })).toBe(DEST);
    expect(await goes(code)).toBe(OVER);
    expect(await goes(code, { method: 'HEAD' })).toBe(OVER);
    expect(await clicks(code)).toBe(2);
    expect(await resolve(code, {})).toEqual({ url: OVER, reason: 'expired' });
    const plain = await create({ url: DEST, maxClicks: 1 });
    await goes(plain);
    expect((await visit(plain)).statusCode).toBe(410);
    expect(await resolve(plain, {})).toEqual({ url: null, reason: 'expired' });
  });

  it('a used-up protected link shows its fallback as the resolve endpoint says', async () => {
    const code = await create({ url: DEST, maxClicks: 1, expiredUrl: OVER, password: 'open sesame' });
    const unlocked = await t.app.inject({ method: 'POST', url: `/${code}`, headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': UA.windows }, payload: 'password=open+sesame' });
    expect(unlocked.headers.location).toBe(DEST);
    const resolved = await resolve(code, {});
    const res = await visit(code);
    expect({ status: res.statusCode, location: res.headers.location ?? null }).toEqual({ status: 302, location: resolved.url });
  });
});

describe(`socialPreview (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const { create, visit, goes, clicks, details } = visitors(t, () => owner);
  const preview = { title: 'Launch <script>alert("x")</script> & "more"', description: "It's <b>big</b>", image: 'https://cdn.example.com/card.png?a=1&b="2"' };

  it('shows each preview bot a 200 page of escaped og: and twitter: tags, and redirects people', async () => {
    const code = await create({ url: DEST, socialPreview: preview });
    expect((await details(code)).socialPreview).toEqual(preview);
    for (const [name, ua] of Object.entries(PREVIEW_BOTS)) {
      const res = await visit(code, { ua });
      expect(res.statusCode, name).toBe(200);
      expect(res.headers.location, name).toBeUndefined();
      expect(res.headers['content-type'], name).toMatch(/^text\/html/);
      const html = res.body;
      expect(html, name).toContain('<meta property="og:title" content="Launch &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;more&quot;">');
      expect(html, name).toContain('<meta property="og:description" content="It&#39;s &lt;b&gt;big&lt;/b&gt;">');
      expect(html, name).toContain('<meta property="og:image" content="https://cdn.example.com/card.png?a=1&amp;b=&quot;2&quot;">');
      expect(html, name).toMatch(/<meta name="twitter:card" content="summary_large_image">/);
      expect(html, name).toMatch(/<meta name="twitter:title" content="Launch &lt;script/);
      expect(html, name).not.toContain('<script>');
      expect(html, name).not.toContain('<b>big');
      expect(html, name).not.toContain(DEST);
    }
    for (const ua of [UA.windows, UA.iphone, UA.android, UA.mac]) expect(await goes(code, { ua })).toBe(DEST);
    expect(await clicks(code)).toBe(4);
  });

  it('bots of a link without a preview are redirected; removing the preview ends its page', async () => {
    const plain = await create({ url: DEST });
    expect(await goes(plain, { ua: PREVIEW_BOTS.Twitterbot })).toBe(DEST);
    const code = await create({ url: DEST, socialPreview: { title: 'T' } });
    const page = await visit(code, { ua: PREVIEW_BOTS['Slackbot-LinkExpanding'] });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<meta name="twitter:card" content="summary">/);
    const removed = await t.as(owner, { method: 'PATCH', url: `/api/links/${code}`, payload: { socialPreview: null } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await goes(code, { ua: PREVIEW_BOTS.Twitterbot })).toBe(DEST);
    expect(await clicks(code)).toBe(0);
    expect(await clicks(plain)).toBe(0);
  });
});
