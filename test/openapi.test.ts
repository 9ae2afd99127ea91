import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startApp, type TestApp } from './helpers/app.js';

describe('GET /openapi.yaml', () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, unknown>> };

  beforeAll(async () => {
    t = await startApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.yaml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/yaml/);
    doc = parse(res.body);
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.0 document', async () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    const result = await validate(structuredClone(doc) as never);
    expect('errors' in result ? result.errors : []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every registered route', () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    const routes = t.app.registeredRoutes.map((r) => r.replace(/:([A-Za-z0-9_]+)/g, '{$1}'));
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);
  });

  it('marks key-protected routes with the bearer scheme and documents A and B link routes', () => {
    const ops = doc.paths['/api/v1/links'] as Record<string, { security?: unknown; responses: Record<string, unknown> }>;
    expect(ops.post!.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(ops.post!.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403']));
    expect(doc.paths['/api/createShort']).toBeDefined();
    expect(doc.paths['/api/v1/links/{shortPath}']).toBeDefined();
  });
});
