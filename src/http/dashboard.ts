import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

const hidden = { hide: true };

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Snip · dashboard not built</title></head>
<body><h1>The dashboard is not built</h1><p>Run <code>npm run build</code> (or <code>npm ci</code>) in Snip's folder and restart it.
The API works meanwhile: see <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * The dashboard (web/, built by scripts/build.mjs into dist/app) at /app: its hashed assets for a year, and its one
 * page for every other /app address, so a reload or a shared link of any dashboard page opens that page.
 */
export const dashboardRoutes =
  (dir: string): FastifyPluginAsync =>
  async (app) => {
    const indexFile = path.join(dir, 'index.html');
    // Read on each request (a few hundred bytes): a rebuild swaps in new asset names, and the page must name them.
    const send = async (_request: unknown, reply: FastifyReply) => {
      const page = await fs.promises.readFile(indexFile).catch(() => null);
      if (!page) return reply.status(503).type('text/html; charset=utf-8').send(notBuilt);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    };
    if (fs.existsSync(indexFile)) {
      await app.register(fastifyStatic, {
        root: path.join(dir, 'assets'),
        prefix: '/app/assets/',
        // File names carry their content's hash: a new build has new names.
        immutable: true,
        maxAge: '365d',
        index: false,
        decorateReply: false,
        schemaHide: true,
      });
    }
    app.get('/app', { schema: hidden }, send);
    app.get('/app/*', { schema: hidden }, send);
  };
