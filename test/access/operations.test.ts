import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TOOLS } from '../../src/mcp/server.js';
import { startApp, type TestApp } from '../helpers/app.js';

/**
 * Each operation is defined once (src/access/operation.ts) and bound by every surface that offers it: an MCP tool
 * and the REST routes of its operation share the policy and the error codes because they share the definition.
 */
interface RestOperation {
  key: string;
  operationId: string;
  security?: unknown[];
  'x-error-codes': Record<string, string[]>;
}

describe('operations bound by REST and MCP', () => {
  let t: TestApp;
  let rest: RestOperation[];

  beforeAll(async () => {
    t = await startApp();
    const doc = parse((await t.app.inject({ method: 'GET', url: '/openapi.yaml' })).body) as { paths: Record<string, Record<string, RestOperation>> };
    rest = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({ ...op, key: `${method.toUpperCase()} ${path}` })),
    );
  });
  afterAll(() => t.close());

  const routesOf = (id: string) => rest.filter((op) => op.operationId === `${id}A` || op.operationId === `${id}B`);

  it('every tool offers an operation that REST binds too', () => {
    const unbound = TOOLS.filter((tool) => routesOf(tool.operation.id).length === 0).map((tool) => `${tool.name} (${tool.operation.id})`);
    expect(unbound).toEqual([]);
  });

  it("a tool's REST twins take its access (a key unless public) and list every code its service may refuse with, and its plan refusal", () => {
    const problems: string[] = [];
    for (const tool of TOOLS) {
      const { policy, errors } = tool.operation;
      for (const route of routesOf(tool.operation.id)) {
        const codes = Object.values(route['x-error-codes']).flat();
        const access = policy.public ? [] : ['API_KEY_REQUIRED', 'RATE_LIMITED'];
        const expected = [...errors, ...(policy.minTier === 'any' ? [] : [policy.tierCode ?? 'TIER_REQUIRED']), ...access];
        for (const code of expected) if (!codes.includes(code)) problems.push(`${route.key} (${tool.name}) does not list ${code}`);
        if (policy.public && (route.security ?? []).length > 0) problems.push(`${route.key} (${tool.name}) asks for a key, but its operation is public`);
        if (policy.minTier === 'any' && codes.some((c) => c === 'TIER_REQUIRED' || c === 'TIER_UPGRADE_REQUIRED')) problems.push(`${route.key} (${tool.name}) lists a plan refusal its operation never makes`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('tools of one operation name it once: no two operations share an id but differ in their codes', () => {
    const byId = new Map<string, string>();
    const clashes: string[] = [];
    for (const tool of TOOLS) {
      const errors = JSON.stringify([...tool.operation.errors].sort());
      const seen = byId.get(tool.operation.id);
      if (seen !== undefined && seen !== errors) clashes.push(tool.operation.id);
      byId.set(tool.operation.id, errors);
    }
    expect(clashes).toEqual([]);
  });
});
