import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { importItem } from '../../src/links/import-columns.js';

/** A routed link leaves Snip in a JSON export and comes back through the import dialect with its routing intact. */
describe(`routing in exports and imports (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const routing = {
    rules: [{ conditions: [{ type: 'device', value: 'ios' }, { type: 'country', value: 'DE' }], url: 'https://example.com/ios-de' }],
    variants: [
      { url: 'https://example.com/a', weight: 40 },
      { url: 'https://example.com/b', weight: 60 },
    ],
    expiredUrl: 'https://example.com/over',
    socialPreview: { title: 'Launch <day>', description: 'Come along', image: 'https://example.com/card.png' },
  };

  it('writes rules, variants, expiredUrl and socialPreview to JSON (never the password), and the import reads them back', async () => {
    const made = await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/routed', ...routing, password: 'open sesame' } });
    expect(made.statusCode, made.body).toBe(201);
    const plain = await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/plain' } });
    expect(plain.statusCode).toBe(201);

    const file = await t.as(owner, { method: 'GET', url: '/api/v1/export/links?format=json' });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).not.toContain('open sesame');
    const links = (JSON.parse(file.body) as { links: Record<string, unknown>[] }).links;
    const routed = links.find((l) => l.destination === 'https://example.com/routed')!;
    expect(routed).toMatchObject({ ...routing, passwordProtected: true });
    // A link without routing carries none of these fields.
    const bare = links.find((l) => l.destination === 'https://example.com/plain')!;
    for (const field of ['rules', 'variants', 'expiredUrl', 'socialPreview', 'passwordProtected']) expect(bare, field).not.toHaveProperty(field);

    // Another account imports the row as Snip's import dialect reads a JSON row.
    const item = importItem(routed, false);
    const bulk = await t.as(other, { method: 'POST', url: '/api/bulk', payload: { urls: [item] } });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const result = bulk.json<{ results: { success: boolean; shortCode?: string; error?: string }[] }>().results[0]!;
    expect(result.success, result.error).toBe(true);
    const copy = await t.as(other, { method: 'GET', url: `/api/v1/links/${result.shortCode}` });
    expect(copy.json()).toMatchObject({ long: 'https://example.com/routed', ...routing, passwordProtected: false });
  });
});
