import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BaseResolver, createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { Yaml } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startApp, type TestApp } from '../helpers/app.js';

/**
 * /openapi.yaml as the maintained linters read it (issue 27): Redocly's `recommended` rules with no problem at all,
 * Spectral's `oas` rules with no error and no warning; shared schemas written once in `components` and referred to;
 * an empty `security` on public operations; a description on every operation and tag; and types generated from it
 * (openapi-typescript) that compile under `--strict`. Both linters run offline: the document refers to nothing
 * outside itself, and Redocly's resolver here refuses any external reference (openapi-core sends no telemetry).
 */

type Operation = { operationId: string; description?: string; tags?: string[]; security?: unknown[]; responses: Record<string, unknown> };
type Doc = {
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; responses?: Record<string, unknown> };
};

/** Redocly's resolver, but for anything outside the document: the lint must never fetch or read a file. */
class SelfContained extends BaseResolver {
  override async loadExternalRef(absoluteRef: string): Promise<never> {
    throw new Error(`The document refers outside itself: ${absoluteRef}`);
  }
}

/** Every `$ref` in `node`. */
function refsIn(node: unknown): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const own = typeof (node as { $ref?: unknown }).$ref === 'string' ? [(node as { $ref: string }).$ref] : [];
  return [...own, ...Object.values(node).flatMap(refsIn)];
}

/** Every object in `node` with where it is, depth first. */
function* objectsIn(node: unknown, at: string): Generator<[string, object]> {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) yield [at, node];
  for (const [key, value] of Object.entries(node)) yield* objectsIn(value, `${at}/${key}`);
}

describe('/openapi.yaml under the linters', () => {
  let t: TestApp;
  let yaml: string;
  let doc: Doc;
  const operations = () => Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })));

  beforeAll(async () => {
    t = await startApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.yaml' });
    expect(res.statusCode).toBe(200);
    yaml = res.body;
    doc = parse(yaml) as Doc;
  });
  afterAll(() => t.close());

  // Spectral's default resolver would fetch an http(s) `$ref`: there must be none before it runs.
  const externalRefs = () => refsIn(doc).filter((ref) => !ref.startsWith('#/'));

  it('refers to nothing outside itself', () => {
    expect(externalRefs()).toEqual([]);
  });

  it("has no problem under Redocly's recommended rules, errors or warnings", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: yaml, absoluteRef: path.join(os.tmpdir(), 'snip-openapi.yaml'), config, externalRefResolver: new SelfContained() });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`)).toEqual([]);
  });

  it("has no error and no warning under Spectral's oas rules", async () => {
    expect(externalRefs()).toEqual([]);
    const spectral = new Spectral();
    // The rulesets package declares `oas` more loosely than spectral-core's RulesetDefinition union reads it.
    spectral.setRuleset(oas as RulesetDefinition);
    const results = await spectral.run(new Document(yaml, Yaml, 'openapi.yaml'));
    // Severity 0 is an error, 1 a warning (2 and 3 are information and hints).
    const serious = results.filter((r) => r.severity <= 1);
    expect(serious.map((r) => `${r.severity} ${r.code}: ${r.message} at ${r.path.join('.')}`)).toEqual([]);
  });

  it('writes the shared schemas once, in components, and refers to them: a link of each description, an error of each, pagination', () => {
    const schemas = doc.components.schemas;
    for (const name of ['LinkA', 'LinkB', 'CreatedLinkA', 'ErrorA', 'RateLimitErrorB', 'Pagination']) expect(schemas[name], name).toBeDefined();
    const listB = doc.paths['/api/links']!.get!.responses['200'] as { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
    expect(listB.content['application/json'].schema.properties).toEqual({
      links: { type: 'array', items: { $ref: '#/components/schemas/LinkB' } },
      pagination: { $ref: '#/components/schemas/Pagination' },
    });
    expect(doc.paths['/api/v1/links/{shortPath}']!.get!.responses['200']).toEqual({ $ref: '#/components/responses/LinkA' });
    expect(doc.paths['/api/v1/links']!.post!.responses['400']).toEqual({ $ref: '#/components/responses/ErrorA' });
    // B's own 429 body; A's for everything else, B's routes included.
    expect(doc.paths['/api/links']!.post!.responses['429']).toEqual({ $ref: '#/components/responses/RateLimitErrorB' });
    expect(doc.paths['/api/links']!.post!.responses['400']).toEqual({ $ref: '#/components/responses/ErrorA' });
    expect(doc.paths['/api/v1/links']!.post!.responses['429']).toEqual({ $ref: '#/components/responses/ErrorA' });
  });

  it('inlines no copy of a shared schema anywhere in the paths', () => {
    const shared = new Map(Object.entries(doc.components.schemas).map(([name, schema]) => [JSON.stringify(schema), name]));
    const copies = [...objectsIn(doc.paths, '')].flatMap(([at, node]) => {
      const name = shared.get(JSON.stringify(node));
      return name === undefined ? [] : [`${name} at ${at}`];
    });
    expect(copies).toEqual([]);
  });

  it('asks public operations for no credential (security: []) and every other for a key', () => {
    const ops = operations();
    const unstated = ops.filter(({ op }) => !Array.isArray(op.security)).map(({ key }) => key);
    expect(unstated).toEqual([]);
    const publicOps = ops.filter(({ op }) => op.security!.length === 0).map(({ key }) => key);
    expect(publicOps).toEqual(expect.arrayContaining(['GET /healthz', 'GET /openapi.yaml', 'POST /api/auth/sign-in', 'GET /api/link-scan/{short}', 'GET /api/qr/{shortCode}', 'GET /{code}']));
    expect(publicOps).not.toContain('POST /api/v1/links');
    expect(doc.paths['/api/v1/links']!.post!.security).toEqual([{ bearerAuth: [] }]);
  });

  it('describes every operation, and lists every tag an operation carries, once, with a description', () => {
    const ops = operations();
    expect(ops.filter(({ op }) => !op.description?.trim()).map(({ key }) => key)).toEqual([]);
    const listed = (doc.tags ?? []).map((tag) => tag.name);
    expect(new Set(listed).size).toBe(listed.length);
    expect((doc.tags ?? []).filter((tag) => !tag.description?.trim())).toEqual([]);
    const used = new Set(ops.flatMap(({ op }) => op.tags ?? []));
    expect([...used].filter((tag) => !listed.includes(tag))).toEqual([]);
    expect(listed.filter((tag) => !used.has(tag))).toEqual([]);
  });

  it('leaves out what no client calls: the CORS preflight and the methods /mcp only refuses (405)', () => {
    expect(Object.keys(doc.paths['/mcp']!)).toEqual(['post']);
  });

  it('gives types (openapi-typescript) that compile under --strict, with the shared schemas as named types', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-openapi-types-'));
    try {
      fs.writeFileSync(path.join(dir, 'schema.d.ts'), astToString(await openapiTS(yaml, { silent: true })));
      fs.writeFileSync(
        path.join(dir, 'use.ts'),
        [
          "import type { components, paths } from './schema.js';",
          "type LinkB = components['schemas']['LinkB'];",
          "type Page = paths['/api/links']['get']['responses'][200]['content']['application/json'];",
          "type NotFound = paths['/api/links/{shortPath}']['get']['responses'][404]['content']['application/json'];",
          "export const page: Page = { links: [] as LinkB[], pagination: { limit: 20, offset: 0, hasMore: false } };",
          "export const refusal: NotFound = { error: true, message: 'No such link', code: 'NOT_FOUND' } satisfies components['schemas']['ErrorA'];",
          '',
        ].join('\n'),
      );
      const program = ts.createProgram([path.join(dir, 'use.ts')], {
        strict: true,
        noEmit: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        types: [],
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
