import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

/** Where the dashboard answers; its files are compressed at build, so src/http/compression.ts leaves it alone. */
export const DASHBOARD_PATH = '/app';

const hidden = { hide: true };

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Snip · dashboard not built</title></head>
<body><h1>The dashboard is not built</h1><p>Run <code>npm run build</code> (or <code>npm ci</code>) in Snip's folder and restart it.
The API works meanwhile: see <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * The dashboard (web/, built by scripts/build.mjs into dist/app) at /app: its hashed assets for a year, and its one
 * page for every other /app address, so a reload or a shared link of any dashboard page opens that page. Both come
 * as the build's Brotli or gzip copy (`.br`, `.gz` beside each file) when the client accepts one, with
 * `Vary: accept-encoding` either way.
 */
export const dashboardRoutes =
  (dir: string): FastifyPluginAsync =>
  async (app) => {
    if (!fs.existsSync(path.join(dir, 'index.html'))) {
      const explain = async (_request: unknown, reply: FastifyReply) => reply.status(503).type('text/html; charset=utf-8').send(notBuilt);
      app.get(DASHBOARD_PATH, { schema: hidden }, explain);
      app.get(`${DASHBOARD_PATH}/*`, { schema: hidden }, explain);
      return;
    }
    await app.register(fastifyStatic, {
      root: path.join(dir, 'assets'),
      prefix: `${DASHBOARD_PATH}/assets/`,
      preCompressed: true,
      // File names carry their content's hash: a new build has new names.
      immutable: true,
      maxAge: '365d',
      index: false,
      schemaHide: true,
    });
    // From disk on each request, revalidated by the browser each time (ETag): a rebuild swaps in new asset names,
    // and the page must name them.
    const page = async (_request: unknown, reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html', dir, { cacheControl: false });
    app.get(DASHBOARD_PATH, { schema: hidden }, page);
    app.get(`${DASHBOARD_PATH}/*`, { schema: hidden }, page);
  };
