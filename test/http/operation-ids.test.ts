import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startApp, type TestApp } from '../helpers/app.js';

/**
 * Every operation of /openapi.yaml carries a camelCase operationId, unique across the document, so generated clients
 * get usable method names.
 */
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

describe('operationId', () => {
  let t: TestApp;
  let operations: { key: string; operationId: unknown }[];

  beforeAll(async () => {
    t = await startApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.yaml' });
    expect(res.statusCode).toBe(200);
    const doc = parse(res.body) as { paths: Record<string, Record<string, { operationId?: unknown }>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => METHODS.has(method))
        .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, operationId: op.operationId })),
    );
  });
  afterAll(() => t.close());

  it('is present on every operation, in camelCase', () => {
    expect(operations.length).toBe(t.app.registeredRoutes.length);
    const bad = operations.filter((op) => typeof op.operationId !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(op.operationId));
    expect(bad.map((op) => `${op.key}: ${String(op.operationId)}`)).toEqual([]);
  });

  it('is unique', () => {
    const ids = operations.map((op) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});
