import type { LightMyRequestResponse } from 'fastify';
import jsqr from 'jsqr';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type BlockApp, type TestUser } from '../helpers/app.js';
import { LINKS_A, type CreatedLinkA } from '../helpers/links.js';

// jsqr is CommonJS whose exports are the function with itself as `default`; under NodeNext TypeScript types the
// default import as the module, so the function is read from its `default`.
const jsQR = jsqr.default;

const SETTINGS_BASES = ['/api/v1/qr-settings', '/api/user/qr-settings'];
const DEFAULT_SETTINGS = { color: '000000', bgColor: 'FFFFFF', size: 300, errorCorrection: 'M', margin: 4, updatedAt: null };

interface Picture {
  png: PNG;
  /** The text the code decodes to, its QR version, and where the top-left finder pattern's centre is. */
  text: string;
  version: number;
  finder: { x: number; y: number };
}

/** Reads a 200 image answer: the PNG and what a scanner makes of it. */
function picture(res: LightMyRequestResponse): Picture {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  const png = PNG.sync.read(res.rawPayload);
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(code, 'the image decodes as a QR code').not.toBeNull();
  const finder = code!.location.topLeftFinderPattern;
  return { png, text: code!.data, version: code!.version, finder: { x: Math.round(finder.x), y: Math.round(finder.y) } };
}

/** The colour of one pixel as six upper-case hex digits (alpha is always opaque). */
function pixel(png: PNG, x: number, y: number): string {
  const i = (y * png.width + x) * 4;
  expect(png.data[i + 3]).toBe(255);
  return Buffer.from(png.data.subarray(i, i + 3)).toString('hex').toUpperCase();
}

/** Width of the quiet zone on the finder's row, and of one module (the finder's outer dark ring is one module). */
function quietZoneAndModule(shot: Picture): { quiet: number; unit: number } {
  const dark = pixel(shot.png, shot.finder.x, shot.finder.y);
  let x = 0;
  while (pixel(shot.png, x, shot.finder.y) !== dark) x++;
  const quiet = x;
  while (pixel(shot.png, x, shot.finder.y) === dark) x++;
  return { quiet, unit: x - quiet };
}

const get = (t: BlockApp, url: string, headers: Record<string, string> = {}) => t.as(null, { method: 'GET', url, headers });

async function createLink(t: BlockApp, owner: TestUser, body: Record<string, unknown>): Promise<CreatedLinkA> {
  const res = await t.as(owner, { method: 'POST', url: LINKS_A, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedLinkA>();
}

describe(`QR images (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  let code: string;
  let nsPath: string;

  beforeAll(async () => {
    code = (await createLink(t, owner, { url: 'https://example.com/qr' })).shortCode;
    nsPath = (await createLink(t, owner, { url: 'https://example.com/qr-ns', customSlug: 'Spring-Menu' })).fullPath!;
  });

  it('encodes the short URL of a code link, 300 x 300, black on white, cacheable', async () => {
    const res = await get(t, `/api/qr/${code}`);
    const shot = picture(res);
    expect(shot.text).toBe(`http://snip.test/${code}`);
    expect([shot.png.width, shot.png.height]).toEqual([300, 300]);
    expect(pixel(shot.png, 0, 0)).toBe('FFFFFF');
    expect(pixel(shot.png, shot.finder.x, shot.finder.y)).toBe('000000');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('encodes the short URL of a namespaced link, whatever the case of the prefix', async () => {
    const [prefix, slug] = nsPath.split('/');
    expect(picture(await get(t, `/api/qr/${nsPath}`)).text).toBe(`http://snip.test/${nsPath}`);
    expect(picture(await get(t, `/api/qr/${prefix!.toUpperCase()}/${slug}`)).text).toBe(`http://snip.test/${nsPath}`);
  });

  it.each([100, 257, 300, 1000])('answers exactly %i x %i pixels, and the code still scans', async (size) => {
    for (const path of [code, nsPath]) {
      const shot = picture(await get(t, `/api/qr/${path}?size=${size}`));
      expect([shot.png.width, shot.png.height], path).toEqual([size, size]);
      expect(shot.text).toBe(`http://snip.test/${path}`);
    }
  });

  it('draws modules in color and the background in bgColor, in either case of hex digits', async () => {
    const res = await get(t, `/api/qr/${code}?color=1f3a93&bgColor=FFF8E1`);
    const shot = picture(res);
    expect(pixel(shot.png, 0, 0)).toBe('FFF8E1');
    expect(pixel(shot.png, shot.png.width - 1, shot.png.height - 1)).toBe('FFF8E1');
    expect(pixel(shot.png, shot.finder.x, shot.finder.y)).toBe('1F3A93');
    const upper = await get(t, `/api/qr/${code}?color=1F3A93&bgColor=fff8e1`);
    expect(upper.headers.etag).toBe(res.headers.etag);
  });

  it('keeps at least `margin` modules of quiet zone, every module a whole number of pixels', async () => {
    for (const [margin, size] of [[0, 300], [4, 300], [10, 300], [10, 100], [4, 257]] as const) {
      const shot = picture(await get(t, `/api/qr/${code}?margin=${margin}&size=${size}`));
      const { quiet, unit } = quietZoneAndModule(shot);
      expect(quiet, `margin ${margin} at ${size} px`).toBeGreaterThanOrEqual(margin * unit);
      // The finder's centre module is three modules in from its edge.
      expect(shot.finder.x).toBeGreaterThanOrEqual(quiet + 3 * unit);
      expect(shot.finder.x).toBeLessThan(quiet + 4 * unit);
    }
  });

  it('uses the error correction level asked for (a stronger level needs a bigger symbol)', async () => {
    const low = picture(await get(t, `/api/qr/${code}?ecc=L`));
    const high = picture(await get(t, `/api/qr/${code}?ecc=H`));
    expect(high.version).toBeGreaterThan(low.version);
  });

  it.each([
    ['size=99', 'INVALID_SIZE'],
    ['size=1001', 'INVALID_SIZE'],
    ['size=abc', 'INVALID_SIZE'],
    ['size=150.5', 'INVALID_SIZE'],
    ['size=', 'INVALID_SIZE'],
    ['color=red', 'INVALID_COLOR'],
    ['color=%23000000', 'INVALID_COLOR'],
    ['color=12345', 'INVALID_COLOR'],
    ['color=1234567', 'INVALID_COLOR'],
    ['bgColor=GGGGGG', 'INVALID_BG_COLOR'],
    ['bgColor=', 'INVALID_BG_COLOR'],
    ['margin=11', 'INVALID_MARGIN'],
    ['margin=-1', 'INVALID_MARGIN'],
    ['ecc=X', 'INVALID_ECC'],
    ['ecc=m', 'INVALID_ECC'],
  ])('refuses ?%s with 400 %s on both paths', async (query, errorCode) => {
    expectError(await get(t, `/api/qr/${code}?${query}`), 400, errorCode);
    expectError(await get(t, `/api/qr/${nsPath}?${query}`), 400, errorCode);
  });

  it('refuses a short code that is not 6 letters and digits, and answers 404 for unknown links', async () => {
    expectError(await get(t, '/api/qr/abc'), 400, 'INVALID_SHORT_CODE');
    expectError(await get(t, '/api/qr/abc-12'), 400, 'INVALID_SHORT_CODE');
    const unknown = await get(t, '/api/qr/zzzzz9');
    expectError(unknown, 404, 'NOT_FOUND');
    expect(unknown.json<{ message: string }>().message).toBe('Short URL not found');
    expectError(await get(t, `/api/qr/${owner.namespace}/no-such-slug`), 404, 'NOT_FOUND');
  });

  it('answers 304 without a body when If-None-Match names the current ETag', async () => {
    const first = await get(t, `/api/qr/${code}?size=200`);
    const etag = first.headers.etag as string;
    const again = await get(t, `/api/qr/${code}?size=200`);
    expect(again.headers.etag).toBe(etag);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);

    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get(t, `/api/qr/${code}?size=200`, { 'if-none-match': header });
      expect(res.statusCode, header).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
    }
    // Any parameter changes the image and so the ETag: the old one no longer matches.
    for (const query of ['size=201', 'size=200&color=000001', 'size=200&bgColor=FFFFFE', 'size=200&margin=3', 'size=200&ecc=Q']) {
      const res = await get(t, `/api/qr/${code}?${query}`, { 'if-none-match': etag });
      expect(res.statusCode, query).toBe(200);
      expect(res.headers.etag, query).not.toBe(etag);
    }
    const otherLink = await get(t, `/api/qr/${nsPath}?size=200`, { 'if-none-match': etag });
    expect(otherLink.statusCode).toBe(200);
  });

  it('answers HEAD with the headers of GET', async () => {
    const head = await t.as(null, { method: 'HEAD', url: `/api/qr/${code}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/png');
    expect(head.headers.etag).toBe((await get(t, `/api/qr/${code}`)).headers.etag);
  });

  it('offers the same rules to other surfaces through the service (MCP), and a data URL', async () => {
    const viaService = await t.core.qr.image(nsPath, { size: 120 });
    expect(viaService.url).toBe(`http://snip.test/${nsPath}`);
    expect(PNG.sync.read(viaService.png).width).toBe(120);
    expect(viaService.etag).toBe((await get(t, `/api/qr/${nsPath}?size=120`)).headers.etag);

    const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof AppError ? error.code : error));
    expect(await refusal(t.core.qr.image(code, { size: 99 }))).toBe('INVALID_SIZE');
    expect(await refusal(t.core.qr.image(code, { size: '300' }))).toBe('INVALID_SIZE');
    expect(await refusal(t.core.qr.image(code, { color: '#000000' }))).toBe('INVALID_COLOR');
    expect(await refusal(t.core.qr.image(code, { bgColor: 'GGGGGG' }))).toBe('INVALID_BG_COLOR');
    expect(await refusal(t.core.qr.image('nope', {}))).toBe('NOT_FOUND');

    const dataUrl = await t.core.qr.dataUrlFor({ code }, 150);
    expect(dataUrl).toMatch(/^data:image\/png;base64,/);
    const png = PNG.sync.read(Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64'));
    expect([png.width, png.height]).toEqual([150, 150]);
    expect(jsQR(new Uint8ClampedArray(png.data), 150, 150)?.data).toBe(`http://snip.test/${code}`);
  });
});

describe(`QR settings (${dialectName})`, () => {
  const t = useTestApp();
  const alice = t.user('pro');
  const bob = t.user('pro');
  const settings = (user: TestUser | string | null, base: string, payload?: Record<string, unknown>) =>
    t.as(user, payload === undefined ? { method: 'GET', url: base } : { method: 'PATCH', url: base, payload });

  it('answers the defaults, with updatedAt null, before anything is saved', async () => {
    for (const base of SETTINGS_BASES) {
      const res = await settings(alice, base);
      expect(res.statusCode, base).toBe(200);
      expect(res.json()).toEqual(DEFAULT_SETTINGS);
    }
  });

  it('changes only the fields given, and both descriptions show the same settings', async () => {
    const first = await settings(alice, '/api/v1/qr-settings', { color: '1f3a93' });
    expect(first.statusCode, first.body).toBe(200);
    const saved = first.json<{ updatedAt: string }>();
    expect(saved).toEqual({ ...DEFAULT_SETTINGS, color: '1F3A93', updatedAt: expect.any(String) });
    expect(new Date(saved.updatedAt).toISOString()).toBe(saved.updatedAt);

    t.clock.advance(1_000);
    const second = await settings(alice, '/api/user/qr-settings', { size: 512, errorCorrection: 'H' });
    expect(second.statusCode, second.body).toBe(200);
    const both = second.json<{ updatedAt: string }>();
    expect(both).toEqual({ ...DEFAULT_SETTINGS, color: '1F3A93', size: 512, errorCorrection: 'H', updatedAt: expect.any(String) });
    expect(both.updatedAt > saved.updatedAt).toBe(true);

    const third = await settings(alice, '/api/v1/qr-settings', { bgColor: 'FFF8E1', margin: 0 });
    const expected = { color: '1F3A93', bgColor: 'FFF8E1', size: 512, errorCorrection: 'H', margin: 0, updatedAt: expect.any(String) };
    expect(third.json()).toEqual(expected);
    for (const base of SETTINGS_BASES) expect((await settings(alice, base)).json()).toEqual(third.json());
    // Another account's settings are its own.
    expect((await settings(bob, '/api/v1/qr-settings')).json()).toEqual(DEFAULT_SETTINGS);
  });

  it.each([
    [{ size: 99 }, 'INVALID_SIZE'],
    [{ size: 1001 }, 'INVALID_SIZE'],
    [{ size: 'abc' }, 'INVALID_SIZE'],
    [{ size: 300.5 }, 'INVALID_SIZE'],
    [{ color: 'red' }, 'INVALID_COLOR'],
    [{ color: '#000000' }, 'INVALID_COLOR'],
    [{ color: '12345' }, 'INVALID_COLOR'],
    [{ bgColor: 'GGGGGG' }, 'INVALID_BG_COLOR'],
    [{ errorCorrection: 'X' }, 'INVALID_ERROR_CORRECTION'],
    [{ margin: 11 }, 'INVALID_MARGIN'],
    [{ margin: -1 }, 'INVALID_MARGIN'],
    [{}, 'INVALID_BODY'],
    [{ colour: '000000' }, 'INVALID_BODY'],
  ])('refuses %j with 400 %s on both bases and changes nothing', async (body, errorCode) => {
    const before = (await settings(bob, SETTINGS_BASES[0]!)).json();
    for (const base of SETTINGS_BASES) expectError(await settings(bob, base, body), 400, errorCode, base);
    expect((await settings(bob, SETTINGS_BASES[1]!)).json()).toEqual(before);
  });

  it('needs a valid API key on both bases, before looking at the body', async () => {
    for (const base of SETTINGS_BASES) {
      expectError(await settings(null, base), 401, 'API_KEY_REQUIRED', base);
      expectError(await settings(null, base, { size: 99 }), 401, 'API_KEY_REQUIRED', base);
      expectError(await settings('snip_notARealKeyAtAll0000000000000000000000', base), 401, 'INVALID_API_KEY', base);
    }
  });
});

describe(`QR settings applied to images (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const stranger = t.user('pro');
  let code: string;
  let nsPath: string;
  let strangerCode: string;
  let etagBeforeSettings: string;

  beforeAll(async () => {
    code = (await createLink(t, owner, { url: 'https://example.com/settings' })).shortCode;
    nsPath = (await createLink(t, owner, { url: 'https://example.com/settings-ns', customSlug: 'with-settings' })).fullPath!;
    strangerCode = (await createLink(t, stranger, { url: 'https://example.com/stranger' })).shortCode;
    etagBeforeSettings = (await get(t, `/api/qr/${code}`)).headers.etag as string;
    const res = await t.as(owner, {
      method: 'PATCH',
      url: '/api/v1/qr-settings',
      payload: { color: '8B0000', bgColor: 'F0F0F0', size: 200, errorCorrection: 'H', margin: 2 },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("draws the owner's settings when the request gives no parameters, on both paths", async () => {
    for (const path of [code, nsPath]) {
      const res = await get(t, `/api/qr/${path}`);
      const shot = picture(res);
      expect(shot.text).toBe(`http://snip.test/${path}`);
      expect([shot.png.width, shot.png.height]).toEqual([200, 200]);
      expect(pixel(shot.png, 0, 0)).toBe('F0F0F0');
      expect(pixel(shot.png, shot.finder.x, shot.finder.y)).toBe('8B0000');
      expect(shot.version).toBe(picture(await get(t, `/api/qr/${path}?ecc=H`)).version);
      const { quiet, unit } = quietZoneAndModule(shot);
      expect(quiet).toBeGreaterThanOrEqual(2 * unit);
    }
    // The settings changed the image, so they changed its ETag.
    expect((await get(t, `/api/qr/${code}`)).headers.etag).not.toBe(etagBeforeSettings);
  });

  it('lets each explicit parameter override its setting and keeps the others', async () => {
    const bigger = picture(await get(t, `/api/qr/${code}?size=400`));
    expect([bigger.png.width, pixel(bigger.png, 0, 0), pixel(bigger.png, bigger.finder.x, bigger.finder.y)]).toEqual([400, 'F0F0F0', '8B0000']);

    const black = picture(await get(t, `/api/qr/${code}?color=000000`));
    expect([black.png.width, pixel(black.png, 0, 0), pixel(black.png, black.finder.x, black.finder.y)]).toEqual([200, 'F0F0F0', '000000']);

    const white = picture(await get(t, `/api/qr/${code}?bgColor=FFFFFF`));
    expect([white.png.width, pixel(white.png, 0, 0), pixel(white.png, white.finder.x, white.finder.y)]).toEqual([200, 'FFFFFF', '8B0000']);

    const low = picture(await get(t, `/api/qr/${code}?ecc=L`));
    const high = picture(await get(t, `/api/qr/${code}`));
    expect(low.version).toBeLessThan(high.version);

    const explicit = picture(await get(t, `/api/qr/${code}?size=300&color=000000&bgColor=FFFFFF&margin=4&ecc=M`));
    expect([explicit.png.width, pixel(explicit.png, 0, 0), pixel(explicit.png, explicit.finder.x, explicit.finder.y)]).toEqual([300, 'FFFFFF', '000000']);
  });

  it("uses the defaults for links of accounts that saved no settings, whatever the requester's settings", async () => {
    const res = await t.as(owner, { method: 'GET', url: `/api/qr/${strangerCode}` });
    const shot = picture(res);
    expect([shot.png.width, pixel(shot.png, 0, 0), pixel(shot.png, shot.finder.x, shot.finder.y)]).toEqual([300, 'FFFFFF', '000000']);
  });

  it('draws the data URL for the preview page with the settings, at the size asked for', async () => {
    const dataUrl = await t.core.qr.dataUrlFor({ code }, 240);
    const png = PNG.sync.read(Buffer.from(dataUrl.split(',')[1]!, 'base64'));
    expect([png.width, pixel(png, 0, 0)]).toEqual([240, 'F0F0F0']);
  });
});
