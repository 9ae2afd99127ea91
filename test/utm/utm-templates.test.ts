import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { expectRefusedToCreate, linkApi, LINKS_A, LINKS_B, type Caller, type CreatedLinkA, type LinkA, type LinkB } from '../helpers/links.js';

/**
 * UTM templates (spec 4.3's list/create/delete_utm_template, over REST): A's /api/v1/utm-templates, B's
 * /api/utm-templates, and `utmTemplateId` on link creation, which sets the template's utm_* parameters on the
 * destination.
 */

interface UtmTemplate {
  id: string;
  name: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  createdAt: string;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const TEMPLATE_KEYS = ['createdAt', 'id', 'name', 'utmCampaign', 'utmContent', 'utmMedium', 'utmSource', 'utmTerm'];

const SURFACES = [
  { surface: 'A', base: '/api/v1/utm-templates' },
  { surface: 'B', base: '/api/utm-templates' },
] as const;

type Surface = (typeof SURFACES)[number];

function templateApi(t: TestApp, s: Surface) {
  const api = {
    post: (user: Caller, body: object) => t.as(user, { method: 'POST', url: s.base, payload: body }),
    async create(user: TestUser, body: Record<string, unknown>): Promise<UtmTemplate> {
      const res = await api.post(user, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<UtmTemplate>();
    },
    listRes: (user: Caller) => t.as(user, { method: 'GET', url: s.base }),
    async list(user: TestUser): Promise<UtmTemplate[]> {
      const res = await api.listRes(user);
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json())).toEqual(['templates']);
      return res.json<{ templates: UtmTemplate[] }>().templates;
    },
    del: (user: Caller, id: string) => t.as(user, { method: 'DELETE', url: `${s.base}/${encodeURIComponent(id)}` }),
  };
  return api;
}

const linksA = (t: TestApp) => linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
const linksB = (t: TestApp) => linkApi<LinkB, LinkB>(t, LINKS_B);

describe.each(SURFACES)(`UTM templates on description $surface (${dialectName})`, (s) => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const api = () => templateApi(t, s);

  describe('create and list', () => {
    it('creates a template and answers the template object: trimmed name and values, null where unset', async () => {
      const res = await api().post(owner, { name: '  Newsletter  ', utmSource: ' newsletter ', utmMedium: 'email', utmCampaign: null });
      expect(res.statusCode).toBe(201);
      const body = res.json<UtmTemplate>();
      expect(Object.keys(body).sort()).toEqual(TEMPLATE_KEYS);
      expect(body).toEqual({
        id: expect.stringMatching(/^tpl_/),
        name: 'Newsletter',
        utmSource: 'newsletter',
        utmMedium: 'email',
        utmCampaign: null,
        utmTerm: null,
        utmContent: null,
        createdAt: expect.stringMatching(ISO_INSTANT),
      });
      expect((await api().list(owner)).find((x) => x.id === body.id)).toEqual(body);
    });

    it('lists oldest first, every field set; another account sees none of them', async () => {
      const user = await t.createUser('pro');
      expect(await api().list(user)).toEqual([]);
      const first = await api().create(user, { name: 'First', utmCampaign: 'spring' });
      const second = await api().create(user, { name: 'Second', utmSource: 's', utmMedium: 'm', utmCampaign: 'c', utmTerm: 't', utmContent: 'x' });
      expect(await api().list(user)).toEqual([first, second]);
      expect((await api().list(other)).map((x) => x.id)).not.toContain(first.id);
    });

    it.each([
      [{ utmSource: 'x' }, 'MISSING_NAME'],
      [{ name: '', utmSource: 'x' }, 'INVALID_NAME'],
      [{ name: '   ', utmSource: 'x' }, 'INVALID_NAME'],
      [{ name: 'n'.repeat(51), utmSource: 'x' }, 'INVALID_NAME'],
      [{ name: 'Line\nbreak', utmSource: 'x' }, 'INVALID_NAME'],
      [{ name: 'Nothing set' }, 'MISSING_UTM_FIELDS'],
      [{ name: 'All null', utmSource: null, utmMedium: null, utmCampaign: null, utmTerm: null, utmContent: null }, 'MISSING_UTM_FIELDS'],
      [{ name: 'Empty', utmSource: '' }, 'INVALID_UTM_SOURCE'],
      [{ name: 'Blank', utmMedium: '   ' }, 'INVALID_UTM_MEDIUM'],
      [{ name: 'Long', utmCampaign: 'c'.repeat(201) }, 'INVALID_UTM_CAMPAIGN'],
      [{ name: 'Control', utmTerm: 'a\u0007b' }, 'INVALID_UTM_TERM'],
      [{ name: 'Object', utmContent: { a: 1 } }, 'INVALID_UTM_CONTENT'],
    ])('refuses %j with 400 %s', async (body, code) => {
      const before = (await api().list(owner)).length;
      expectError(await api().post(owner, body), 400, code);
      expect(await api().list(owner)).toHaveLength(before);
    });

    it('allows 50-character names and 200-character values', async () => {
      const body = await api().create(owner, { name: 'N'.repeat(50), utmContent: 'v'.repeat(200) });
      expect(body).toMatchObject({ name: 'N'.repeat(50), utmContent: 'v'.repeat(200) });
    });

    it('refuses a name the account already uses, ignoring case, on either description with 409 TEMPLATE_EXISTS; another account may use it', async () => {
      await api().create(owner, { name: `Taken ${s.surface}`, utmSource: 'a' });
      expectError(await api().post(owner, { name: `TAKEN ${s.surface}`, utmSource: 'b' }), 409, 'TEMPLATE_EXISTS');
      for (const t2 of SURFACES) expectError(await templateApi(t, t2).post(owner, { name: ` taken ${s.surface} `, utmSource: 'c' }), 409, 'TEMPLATE_EXISTS');
      await api().create(other, { name: `Taken ${s.surface}`, utmSource: 'd' });
    });

    it('creates one template when the same name arrives many times at once', async () => {
      const user = await t.createUser('pro');
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => api().post(user, { name: i % 2 ? 'Burst' : 'BURST', utmSource: `s${i}` })));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
      for (const res of results.filter((r) => r.statusCode !== 201)) expectError(res, 409, 'TEMPLATE_EXISTS');
      expect(await api().list(user)).toHaveLength(1);
    });
  });

  describe('delete', () => {
    it('deletes a template; again, or an unknown id, is 404 TEMPLATE_NOT_FOUND', async () => {
      const tpl = await api().create(owner, { name: `Deleted ${s.surface}`, utmSource: 'x' });
      const res = await api().del(owner, tpl.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: expect.any(String) });
      expect((await api().list(owner)).map((x) => x.id)).not.toContain(tpl.id);
      expectError(await api().del(owner, tpl.id), 404, 'TEMPLATE_NOT_FOUND');
      expectError(await api().del(owner, 'tpl_unknown'), 404, 'TEMPLATE_NOT_FOUND');
      // The name is free again.
      await api().create(owner, { name: `Deleted ${s.surface}`, utmSource: 'y' });
    });

    it("answers 404 TEMPLATE_NOT_FOUND for another account's template and keeps it", async () => {
      const theirs = await api().create(other, { name: `Theirs ${s.surface}`, utmSource: 'x' });
      expectError(await api().del(owner, theirs.id), 404, 'TEMPLATE_NOT_FOUND');
      expect((await api().list(other)).map((x) => x.id)).toContain(theirs.id);
    });
  });

  describe('access', () => {
    it('answers 401 API_KEY_REQUIRED without a key and 401 INVALID_API_KEY with an unknown one, before reading the body', async () => {
      const tpl = await api().create(owner, { name: `Keyed ${s.surface}`, utmSource: 'x' });
      for (const route of [
        { method: 'GET' as const, url: s.base },
        { method: 'POST' as const, url: s.base, payload: { name: 'No key', utmSource: 'x' } },
        { method: 'POST' as const, url: s.base, payload: {} },
        { method: 'DELETE' as const, url: `${s.base}/${tpl.id}` },
      ]) {
        expectError(await t.as(null, route), 401, 'API_KEY_REQUIRED', `${route.method} ${route.url}`);
        expectError(await t.as(`snip_${'A'.repeat(40)}`, route), 401, 'INVALID_API_KEY', `${route.method} ${route.url}`);
      }
      expect((await api().list(owner)).map((x) => x.id)).toContain(tpl.id);
    });

    it('refuses a free account with 403 TIER_REQUIRED', async () => {
      const free = await t.createUser('free');
      for (const route of [
        { method: 'GET' as const, url: s.base },
        { method: 'POST' as const, url: s.base, payload: { name: 'Free', utmSource: 'x' } },
        { method: 'DELETE' as const, url: `${s.base}/tpl_unknown` },
      ]) {
        expectError(await t.as(free, route), 403, 'TIER_REQUIRED', `${route.method} ${route.url}`);
      }
    });
  });
});

describe(`UTM templates applied when shortening (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  let full: UtmTemplate;
  let campaignOnly: UtmTemplate;

  const templates = () => templateApi(t, SURFACES[0]);

  it('sets every parameter on a destination without a query (A create), and the redirect goes there', async () => {
    full = await templates().create(owner, { name: 'Full', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring sale', utmTerm: 'shoes', utmContent: 'a&b=c' });
    campaignOnly = await templateApi(t, SURFACES[1]).create(owner, { name: 'Campaign only', utmCampaign: 'launch' });
    const created = await linksA(t).create(owner, { url: 'https://example.com/landing', utmTemplateId: full.id });
    const expected = 'https://example.com/landing?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale&utm_term=shoes&utm_content=a%26b%3Dc';
    expect(created.long).toBe(expected);
    expect((await linksA(t).get(owner, created.shortCode)).json<LinkA>().long).toBe(expected);
    expect((await linksA(t).visit(created.shortCode)).headers.location).toBe(expected);
    const params = new URL(expected).searchParams;
    expect(Object.fromEntries(params)).toEqual({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring sale', utm_term: 'shoes', utm_content: 'a&b=c' });
  });

  it('keeps the existing query as written and the fragment, and replaces parameters of the same name (A create)', async () => {
    const created = await linksA(t).create(owner, {
      url: 'https://example.com/p?id=7&utm_campaign=old&q=a%20b&flag&utm_campaign=older#section',
      utmTemplateId: campaignOnly.id,
    });
    expect(created.long).toBe('https://example.com/p?id=7&q=a%20b&flag&utm_campaign=launch#section');
  });

  it('applies on B create, from a plain url and from a Base64 long, answering the B link', async () => {
    const plain = await linksB(t).create(owner, { url: 'https://shop.example/item?ref=home&utm_source=x', utmTemplateId: full.id });
    expect(plain.long).toBe(
      'https://shop.example/item?ref=home&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale&utm_term=shoes&utm_content=a%26b%3Dc',
    );
    expect(plain.tags).toEqual([]);
    const long = Buffer.from('https://shop.example/b64?x=1', 'utf8').toString('base64');
    const fromLong = await linksB(t).create(owner, { long, utmTemplateId: campaignOnly.id });
    expect(fromLong.long).toBe('https://shop.example/b64?x=1&utm_campaign=launch');
    expect((await linksB(t).visit(fromLong.shortCode)).headers.location).toBe('https://shop.example/b64?x=1&utm_campaign=launch');
  });

  it('applies with a custom slug and other options alongside', async () => {
    const created = await linksA(t).create(owner, { url: 'https://example.com/slugged', customSlug: 'utm-slug', maxClicks: 3, utmTemplateId: campaignOnly.id });
    expect(created).toMatchObject({ long: 'https://example.com/slugged?utm_campaign=launch', maxClicks: 3, fullPath: `${owner.namespace}/utm-slug` });
  });

  it("refuses an unknown or another account's template with 404 TEMPLATE_NOT_FOUND and makes no link, on A and B", async () => {
    const theirs = await templates().create(other, { name: 'Theirs', utmSource: 'x' });
    for (const api of [linksA(t), linksB(t)]) {
      for (const id of ['tpl_unknown', theirs.id, '']) {
        await expectRefusedToCreate(api, owner, () => api.post(owner, { url: 'https://example.com/refused', utmTemplateId: id }), 404, 'TEMPLATE_NOT_FOUND');
      }
    }
  });

  it('checks the destination first, and the destination with the parameters again', async () => {
    expectError(await linksA(t).post(owner, { url: 'not a url', utmTemplateId: 'tpl_unknown' }), 400, 'INVALID_URL');
    const long = await templates().create(owner, { name: 'Long values', utmSource: 's'.repeat(200), utmMedium: 'm'.repeat(200) });
    const url = `https://example.com/${'p'.repeat(3800)}`;
    expect((await linksA(t).create(owner, { url })).long).toBe(url);
    await expectRefusedToCreate(linksA(t), owner, () => linksA(t).post(owner, { url, utmTemplateId: long.id }), 400, 'INVALID_URL');
  });

  it('keeps the destinations of links made with a template that is then deleted', async () => {
    const tpl = await templates().create(owner, { name: 'Short lived', utmMedium: 'social' });
    const created = await linksA(t).create(owner, { url: 'https://example.com/kept', utmTemplateId: tpl.id });
    expect((await templates().del(owner, tpl.id)).statusCode).toBe(200);
    expect((await linksA(t).get(owner, created.shortCode)).json<LinkA>().long).toBe('https://example.com/kept?utm_medium=social');
    expectError(await linksA(t).post(owner, { url: 'https://example.com/after', utmTemplateId: tpl.id }), 404, 'TEMPLATE_NOT_FOUND');
  });

  it('UtmTemplatesService.apply sets the parameters on a URL for the MCP tools, and refuses foreign templates', async () => {
    const caller = await t.core.accounts.authenticate(owner.apiKey);
    expect(await t.core.utmTemplates.apply(caller, campaignOnly.id, 'https://example.com/?utm%5Fcampaign=encoded&a=1')).toBe('https://example.com/?a=1&utm_campaign=launch');
    expect(await t.core.utmTemplates.apply(caller, campaignOnly.id, 'https://example.com/x?')).toBe('https://example.com/x?utm_campaign=launch');
    const otherCaller = await t.core.accounts.authenticate(other.apiKey);
    await expect(t.core.utmTemplates.apply(otherCaller, campaignOnly.id, 'https://example.com/')).rejects.toMatchObject({ status: 404, code: 'TEMPLATE_NOT_FOUND' });
    expectError(await linksA(t).post(owner, { url: 'https://example.com/mcp', utmTemplateId: 42 }), 400, 'INVALID_UTM_TEMPLATE_ID');
    const viaService = await t.core.links.create(caller, { url: 'https://example.com/mcp', utmTemplateId: campaignOnly.id });
    expect(viaService.url).toBe('https://example.com/mcp?utm_campaign=launch');
  });
});
