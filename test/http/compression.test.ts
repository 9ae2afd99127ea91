import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSION_THRESHOLD, registerCompression } from '../../src/http/compression.js';
import { dialectName, useTestApp } from '../helpers/app.js';
import { authorizeByInject, clientId } from '../oauth/inject-flow.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they came over the wire, still encoded. */
  raw: Buffer;
}

/** One request over a real socket; `undefined` in headers leaves a header out (Node's client sends no Accept-Encoding by itself). */
function call(port: number, method: string, url: string, headers: Record<string, string | undefined> = {}, body?: Buffer): Promise<Answer> {
  const sent = Object.fromEntries(Object.entries({ host: 'snip.test', ...headers }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers: sent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The answer's body decoded by its own Content-Encoding, as a browser decodes it. */
function decoded(answer: Answer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.raw);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.raw);
  expect(encoding, 'no other encoding is ever sent').toBeUndefined();
  return answer.raw;
}

const varies = (answer: Answer) => String(answer.headers.vary ?? '').toLowerCase().split(/\s*,\s*/).includes('accept-encoding');
const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

/** What a browser sends, what a gzip-only client sends, none, and a few spellings that mean the same. */
const BR = 'gzip, deflate, br, zstd';
const GZIP_ONLY = 'gzip';

describe(`compression over HTTP (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('pro');
  let port = 0;
  const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) => call(port, 'GET', url, { 'accept-encoding': acceptEncoding, ...headers });

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = portOf(t.app);
  });

  describe('the dashboard, compressed once at build', () => {
    // The real build (dist/app, made by the test setup as `npm start` makes it): its page and its two big assets.
    const dir = path.resolve(import.meta.dirname, '..', '..', 'dist', 'app');
    const page = fs.readFileSync(path.join(dir, 'index.html'));
    const script = /src="\/app\/assets\/([^"]+\.js)"/.exec(page.toString())?.[1];
    const style = /href="\/app\/assets\/([^"]+\.css)"/.exec(page.toString())?.[1];
    const files = [
      { url: '/app/links', file: page, type: /^text\/html/ },
      { url: `/app/assets/${script}`, file: fs.readFileSync(path.join(dir, 'assets', String(script))), type: /javascript/ },
      { url: `/app/assets/${style}`, file: fs.readFileSync(path.join(dir, 'assets', String(style))), type: /^text\/css/ },
    ];

    it('builds a .br and a .gz beside each of its text files', () => {
      expect(script).toBeDefined();
      expect(style).toBeDefined();
      for (const name of ['index.html', `assets/${script}`, `assets/${style}`]) {
        const raw = fs.readFileSync(path.join(dir, name));
        expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, `${name}.br`))).equals(raw), name).toBe(true);
        expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, `${name}.gz`))).equals(raw), name).toBe(true);
      }
    });

    it('serves Brotli to a browser, gzip to a gzip-only client, the file itself otherwise, and says it varies', async () => {
      for (const { url, file, type } of files) {
        for (const [acceptEncoding, expected] of [
          [BR, 'br'],
          ['br', 'br'],
          [GZIP_ONLY, 'gzip'],
          ['br;q=0, gzip', 'gzip'],
          ['*', 'gzip'],
          [undefined, undefined],
          ['identity', undefined],
          ['deflate', undefined],
        ] as const) {
          const answer = await get(url, acceptEncoding);
          const label = `${url} with Accept-Encoding ${acceptEncoding ?? '(none)'}`;
          expect(answer.status, label).toBe(200);
          expect(answer.headers['content-encoding'], label).toBe(expected);
          expect(answer.headers['content-type'], label).toMatch(type);
          expect(varies(answer), label).toBe(true);
          expect(decoded(answer).equals(file), label).toBe(true);
          if (expected) expect(answer.raw.length, label).toBeLessThan(file.length);
        }
      }
    });

    it('keeps its cache rules: the page revalidated, the hashed assets for a year, in either encoding', async () => {
      for (const acceptEncoding of [BR, undefined]) {
        expect((await get('/app/links/ns/slug', acceptEncoding)).headers['cache-control']).toBe('no-cache');
        expect((await get(files[1]!.url, acceptEncoding)).headers['cache-control']).toContain('immutable');
      }
    });
  });

  describe('dynamic answers, compressed from 1 KB', () => {
    it('compresses /openapi.yaml for whoever accepts it', async () => {
      const plain = await get('/openapi.yaml');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.raw.toString()).toMatch(/^openapi: /);
      for (const [acceptEncoding, expected] of [[BR, 'br'], [GZIP_ONLY, 'gzip'], ['gzip, identity;q=0', 'gzip']] as const) {
        const answer = await get('/openapi.yaml', acceptEncoding);
        expect(answer.headers['content-encoding']).toBe(expected);
        expect(varies(answer)).toBe(true);
        expect(answer.raw.length).toBeLessThan(plain.raw.length / 5);
        expect(decoded(answer).equals(plain.raw)).toBe(true);
      }
    });

    it('compresses a long JSON list, and leaves a short JSON answer as it is', async () => {
      for (let i = 0; i < 30; i += 1) {
        const made = await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: `https://example.com/page/${i}` } });
        expect(made.statusCode).toBe(201);
      }
      const auth = { authorization: `Bearer ${user.apiKey}` };
      const plain = await get('/api/v1/links?limit=30', undefined, auth);
      expect(plain.raw.length).toBeGreaterThan(COMPRESSION_THRESHOLD * 4);
      const answer = await get('/api/v1/links?limit=30', BR, auth);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(decoded(answer).toString())).toEqual(JSON.parse(plain.raw.toString()));

      const small = await get('/healthz', BR);
      expect(small.raw.length).toBeLessThan(COMPRESSION_THRESHOLD);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(small.raw.toString())).toEqual({ status: 'ok' });
    });

    it('compresses an export, whole', async () => {
      const auth = { authorization: `Bearer ${user.apiKey}` };
      const plain = await get('/api/v1/export/links?format=csv', undefined, auth);
      expect(plain.status).toBe(200);
      const answer = await get('/api/v1/export/links?format=csv', GZIP_ONLY, auth);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers['content-disposition']).toMatch(/^attachment/);
      expect(decoded(answer).toString()).toBe(plain.raw.toString());
    });

    it("leaves the API reference's own files alone: a 1.7 MB script is not compressed afresh for every anonymous request", async () => {
      const page = await get('/docs/', BR);
      const script = /src="\.?\/?(?:docs\/)?static\/([^"]+\.js)"/.exec(page.raw.toString())?.[1];
      expect(script, page.raw.toString().slice(0, 300)).toBeDefined();
      const answer = await get(`/docs/static/${script}`, BR);
      expect(answer.status).toBe(200);
      expect(answer.raw.length).toBeGreaterThan(100_000);
      expect(answer.headers['content-encoding']).toBeUndefined();
    });

    it('does no compressing for a HEAD, which sends no body', async () => {
      const answer = await call(port, 'HEAD', '/openapi.yaml', { 'accept-encoding': BR });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.raw.length).toBe(0);
    });
  });

  describe('HTML pages', () => {
    it('go out uncompressed, the OAuth consent page with its CSRF token among them (BREACH)', async () => {
      const password = 'a long enough password';
      await t.core.sessions.setPasswordAsOperator(user.email, password);
      const redirectUri = 'https://client.example/callback';
      const { responses } = await authorizeByInject(t, { email: user.email, password }, await clientId(t, redirectUri), redirectUri, { 'accept-encoding': BR });
      const pages = responses.filter((response) => String(response.headers['content-type']).startsWith('text/html'));
      const consent = pages.find((page) => page.body.includes('name="csrf"'));
      expect(consent?.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD);
      for (const page of pages) expect(page.headers['content-encoding']).toBeUndefined();
    });
  });

  describe('the redirect routes', () => {
    it('answer redirects, found or cached, and misses with no Content-Encoding', async () => {
      const made = await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/redirected' } });
      const { shortCode } = made.json<{ shortCode: string }>();
      // The first visit is routed by Fastify (a cache miss), the next ones answered by the fast path.
      for (let visit = 0; visit < 3; visit += 1) {
        const answer = await get(`/${shortCode}`, BR);
        expect(answer.status).toBe(302);
        expect(answer.headers.location).toBe('https://example.com/redirected');
        expect(answer.headers['content-encoding']).toBeUndefined();
        expect(answer.raw.length).toBe(0);
      }
      const miss = await get('/zzzzzzzz', BR);
      expect(miss.status).toBe(404);
      expect(miss.headers['content-encoding']).toBeUndefined();
    });

    it('carry no compression hook at all: the redirect path pays nothing for it', () => {
      const lines = t.app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
      const branchAt = (line: string) => line.search(/[└├]── /);
      // A route's line and everything printed under it, up to its next sibling.
      const subtree = (pattern: RegExp) => {
        const start = lines.findIndex((line) => pattern.test(line));
        expect(start, String(pattern)).toBeGreaterThanOrEqual(0);
        const rest = lines.slice(start + 1);
        const end = rest.findIndex((line) => branchAt(line) !== -1 && branchAt(line) <= branchAt(lines[start]!));
        return [lines[start]!, ...(end === -1 ? rest : rest.slice(0, end))].join('\n');
      };
      // `/{code}` and, under it, `/{prefix}/{slug}`, with their HEAD routes.
      const shortLinks = subtree(/── :code\b/);
      expect(shortLinks).toMatch(/\/:slug \(GET\)/);
      // No answer of theirs is compressed; only the password form's POST reads a body, and refuses an encoded one.
      expect(shortLinks).not.toMatch(/leavePlain/);
      expect(shortLinks.match(/refuseEncodedBody/g)?.length ?? 0).toBeLessThanOrEqual(2);
      // The same listing names them on a compressing route, so their absence above means something.
      expect(subtree(/── openapi\.yaml \(GET\)/)).toContain('leavePlain');
    });
  });

  describe('request bodies', () => {
    const link = Buffer.from(JSON.stringify({ url: 'https://example.com/compressed-body' }));
    const auth = () => ({ authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/json' });
    const count = async () => (await t.as(user, { method: 'GET', url: '/api/v1/links?limit=100' })).json<{ links: unknown[] }>().links.length;

    it('refuses a compressed body, unread, with 415 UNSUPPORTED_MEDIA_TYPE on either surface', async () => {
      const before = await count();
      for (const [encoding, body] of [
        ['gzip', zlib.gzipSync(link)],
        ['br', zlib.brotliCompressSync(link)],
        ['deflate', zlib.deflateSync(link)],
        ['x-gzip', zlib.gzipSync(link)],
        ['GZIP', zlib.gzipSync(link)],
        ['zstd', link],
        ['gzip, identity', zlib.gzipSync(link)],
      ] as const) {
        for (const url of ['/api/v1/links', '/api/links']) {
          const answer = await call(port, 'POST', url, { ...auth(), 'content-encoding': encoding }, body);
          expect(answer.status, `${encoding} to ${url}`).toBe(415);
          expect(JSON.parse(answer.raw.toString()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
          expect(answer.headers['accept-encoding']).toBe('identity');
        }
      }
      expect(await count()).toBe(before);
    });

    it('refuses a zip bomb without inflating it', async () => {
      // 64 MB of zeros in 64 KB: inflated, it would pass every body limit's check only after being read whole.
      const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
      expect(bomb.length).toBeLessThan(128 * 1024);
      const answer = await call(port, 'POST', '/api/v1/links', { ...auth(), 'content-encoding': 'gzip' }, bomb);
      expect(answer.status).toBe(415);
      expect(JSON.parse(answer.raw.toString()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('reads a body whose Content-Encoding is identity as it is', async () => {
      const answer = await call(port, 'POST', '/api/v1/links', { ...auth(), 'content-encoding': 'identity' }, link);
      expect(answer.status).toBe(201);
    });
  });
});

describe('what a compressing route still sends plain', () => {
  let app: FastifyInstance;
  const filler = 'lorem ipsum '.repeat(200);
  const plain = `Plain text ${filler}`;
  // @fastify/compress takes a body starting like zlib or gzip data for compressed data (fastify/fastify-compress#347).
  const lookalikes = ['80% of the links', 'hb: the header', 'XG marks the spot', '(r) registered'].map((start) => `${start} ${filler}`);
  const answers: Record<string, [type: string, body: string]> = {
    plain: ['text/plain; charset=utf-8', plain],
    html: ['text/html; charset=utf-8', `<!doctype html><p>${filler}</p>`],
    binary: ['application/octet-stream', filler],
    events: ['text/event-stream', `data: ${filler}\n\n`],
    ...Object.fromEntries(lookalikes.map((text, n) => [`lookalike${n}`, ['text/plain; charset=utf-8', text]])),
  };
  const fetchAs = (name: string, acceptEncoding: string) => call(portOf(app), 'GET', `/answers/${name}`, { 'accept-encoding': acceptEncoding });

  beforeAll(async () => {
    app = Fastify();
    await registerCompression(app);
    app.get('/answers/:name', async (request, reply) => {
      const [type, body] = answers[(request.params as { name: string }).name]!;
      return reply.type(type).send(body);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('compresses text of 1 KB and more', async () => {
    const answer = await fetchAs('plain', BR);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(decoded(answer).toString()).toBe(plain);
  });

  it('sends text that only looks compressed so that a browser can read it: plain, not labelled with an encoding it does not have', async () => {
    for (const [n, text] of lookalikes.entries()) {
      for (const acceptEncoding of [BR, GZIP_ONLY]) {
        const answer = await fetchAs(`lookalike${n}`, acceptEncoding);
        expect(answer.status).toBe(200);
        expect(decoded(answer).toString(), text.slice(0, 10)).toBe(text);
      }
    }
  });

  it('never compresses HTML (BREACH), an event stream or bytes of no known text type', async () => {
    for (const name of ['html', 'binary', 'events']) {
      const answer = await fetchAs(name, BR);
      expect(answer.status, name).toBe(200);
      expect(answer.headers['content-encoding'], name).toBeUndefined();
      expect(answer.raw.toString(), name).toBe(answers[name]![1]);
    }
  });
});
