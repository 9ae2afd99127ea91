import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { catalogue, httpCodes, isErrorCode, statusOf, type ErrorCode } from '../../src/errors.js';
import { startApp, type TestApp } from '../helpers/app.js';

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

  describe('error codes', () => {
    type Operation = { 'x-error-codes'?: Record<string, string[]>; responses: Record<string, unknown> };
    const operations = () => Object.values(doc.paths).flatMap((ops) => Object.values(ops) as Operation[]);
    const listed = () => operations().flatMap((op) => Object.entries(op['x-error-codes'] ?? {}).flatMap(([status, codes]) => codes.map((code) => ({ status, code }))));

    it('lists, on every operation, the codes it may answer with by status', () => {
      for (const op of operations()) expect(op['x-error-codes']?.['500']).toEqual(['INTERNAL_ERROR']);
      const create = doc.paths['/api/v1/links']!.post as Operation;
      expect(create['x-error-codes']).toMatchObject({
        '401': ['API_KEY_REQUIRED', 'INVALID_API_KEY', 'SESSION_REQUIRED'],
        '403': expect.arrayContaining(['CSRF_TOKEN_INVALID', 'PREMIUM_REQUIRED', 'TIER_REQUIRED']),
        '409': ['SLUG_TAKEN'],
        '429': ['RATE_LIMITED'],
      });
      // Field codes come from the body schema: MISSING_URL for the required url, INVALID_<FIELD> for each field.
      expect(create['x-error-codes']!['400']).toEqual(expect.arrayContaining(['MISSING_URL', 'INVALID_URL', 'INVALID_SLUG', 'INVALID_MAX_CLICKS', 'INVALID_BODY', 'INVALID_JSON']));
      const domains = doc.paths['/api/user/domains']!.post as Operation;
      expect(domains['x-error-codes']!['403']).toEqual(expect.arrayContaining(['TIER_UPGRADE_REQUIRED', 'DOMAIN_LIMIT_REACHED']));
    });

    it('lists the webhook routes\' own codes and gives each webhook operation a unique operationId', () => {
      type Op = Operation & { operationId?: string };
      for (const base of ['/api/v1/webhooks', '/api/webhooks']) {
        const create = doc.paths[base]!.post as Op;
        expect(create['x-error-codes']!['400']).toEqual(expect.arrayContaining(['INVALID_URL', 'INVALID_EVENTS', 'INVALID_NAME', 'INVALID_SECRET', 'DUPLICATE_WEBHOOK']));
        expect(create['x-error-codes']!['403']).toEqual(expect.arrayContaining(['WEBHOOK_LIMIT_REACHED']));
        const update = doc.paths[`${base}/{webhookId}`]!.patch as Op;
        expect(update['x-error-codes']!['400']).toEqual(expect.arrayContaining(['INVALID_ENABLED', 'INVALID_BODY', 'DUPLICATE_WEBHOOK']));
        expect(update['x-error-codes']!['404']).toEqual(['WEBHOOK_NOT_FOUND']);
        expect((doc.paths[`${base}/{webhookId}/deliveries`]!.get as Op)['x-error-codes']!['404']).toEqual(['WEBHOOK_NOT_FOUND']);
      }
      const ids = Object.entries(doc.paths)
        .filter(([path]) => /^\/api(\/v1)?\/webhooks/.test(path))
        .flatMap(([, ops]) => Object.values(ops).map((op) => (op as Op).operationId));
      expect(ids).toHaveLength(14);
      expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]*[AB]$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('lists only codes of the catalogue (or its INVALID_/MISSING_ field pattern), each under its catalogue status', () => {
      const wrong = listed().filter(({ status, code }) => !isErrorCode(code) || String(statusOf(code as ErrorCode)) !== status);
      expect(wrong).toEqual([]);
    });

    it('lists every code of the catalogue the HTTP API can answer with somewhere', () => {
      const seen = new Set(listed().map(({ code }) => code));
      expect(httpCodes().filter((code) => !seen.has(code))).toEqual([]);
    });

    it('gives field codes (INVALID_*, MISSING_*) status 400 in the catalogue, but for the key', () => {
      // INVALID_API_KEY is the 401 of the key check; no request field may be named apiKey.
      const odd = Object.entries(catalogue).filter(([code, entry]) => /^(INVALID|MISSING)_/.test(code) && entry.status !== 400);
      expect(odd.map(([code]) => code)).toEqual(['INVALID_API_KEY']);
    });
  });
});
