import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { bind, callerOf } from '../http/access.js';
import { errorResponses } from '../schema/shapes.js';
import type { LinkKey } from '../links/link-key.js';
import { CODE_PATTERN } from '../links/rules.js';
import { QR_OPERATIONS as ops } from './operations.js';
import { ImageQuery, QrSettings, SettingsBody } from './schemas.js';
import type { QrService } from './service.js';

const imageResponses = {
  200: {
    description: 'The QR code of the short URL, exactly size x size pixels',
    headers: {
      ETag: { type: 'string', description: 'Strong; changes with the encoded URL and every drawing parameter' },
      'Cache-Control': { type: 'string', description: 'public, max-age=3600' },
    },
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
  },
  304: { description: 'Not modified: If-None-Match names the current ETag', type: 'null' },
  ...errorResponses(400, 404),
};

const CACHE_CONTROL = 'public, max-age=3600';

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`, and `*` matches anything. */
const notModified = (header: string | undefined, etag: string): boolean =>
  header !== undefined && header.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')));

/**
 * GET /api/qr/{shortCode} and /api/qr/{prefix}/{slug} (no key), and the QR settings of the caller's account under
 * A's /api/v1/qr-settings and B's /api/user/qr-settings.
 */
export const qrRoutes =
  (qr: QrService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const config = { surface: 'A', access: { auth: 'none' } } as const;
    const tags = ['qr'];
    const answer = async (key: LinkKey, query: Static<typeof ImageQuery>, ifNoneMatch: string | undefined, reply: FastifyReply) => {
      const image = await qr.image(key, query);
      reply.header('etag', image.etag).header('cache-control', CACHE_CONTROL);
      if (notModified(ifNoneMatch, image.etag)) return reply.status(304).send();
      return reply.type('image/png').send(image.png);
    };

    app.get(
      '/api/qr/:shortCode',
      {
        config: { ...config, errors: ['INVALID_SIZE', 'INVALID_MARGIN', 'INVALID_COLOR', 'INVALID_BG_COLOR', 'INVALID_ECC', 'NOT_FOUND'] },
        schema: {
          tags,
          operationId: 'getQrCode',
          summary: 'QR code PNG of a short link',
          description: "For anyone, no key: a PNG of the QR code of a short URL, drawn with its owner's QR defaults unless the query sets size, colours, margin or error correction. Cached by ETag.",
          params: Type.Object({ shortCode: Type.String({ pattern: CODE_PATTERN.source }) }),
          querystring: ImageQuery,
          response: imageResponses,
        },
      },
      async (request, reply) => answer({ code: request.params.shortCode }, request.query, request.headers['if-none-match'], reply),
    );

    app.get(
      '/api/qr/:prefix/:slug',
      {
        config: { ...config, errors: ['INVALID_SIZE', 'INVALID_MARGIN', 'INVALID_COLOR', 'INVALID_BG_COLOR', 'INVALID_ECC', 'NOT_FOUND'] },
        schema: {
          tags,
          operationId: 'getNamespacedQrCode',
          summary: 'QR code PNG of a namespaced short link',
          description: 'The same as /api/qr/{shortCode} for a <prefix>/<slug> link.',
          params: Type.Object({ prefix: Type.String(), slug: Type.String() }),
          querystring: ImageQuery,
          response: imageResponses,
        },
      },
      async (request, reply) => {
        const { prefix, slug } = request.params;
        return answer({ namespace: prefix.toLowerCase(), slug }, request.query, request.headers['if-none-match'], reply);
      },
    );

    for (const { base, surface } of [
      { base: '/api/v1/qr-settings', surface: 'A' },
      { base: '/api/user/qr-settings', surface: 'B' },
    ] as const) {
      const settingsTags = [`qr settings (${surface})`];

      app.get(
        base,
        { config: bind(ops.settings, surface), schema: { tags: settingsTags, summary: "The account's QR defaults (the built-in ones until saved)", description: "Answers the colours, size, margin and error correction the QR codes of the caller's links are drawn with when a request does not set them.", response: { 200: QrSettings } } },
        async (request) => qr.settings(callerOf(request)),
      );

      app.patch(
        base,
        {
          config: bind(ops.updateSettings, surface),
          schema: {
            tags: settingsTags,
            summary: "Change the account's QR defaults; fields not given keep their value",
            description: "Changes the defaults the QR codes of the caller's links are drawn with; fields not sent keep their value. Images drawn from now on use them, under new ETags.",
            body: SettingsBody,
            response: { 200: QrSettings, ...errorResponses(400) },
          },
        },
        async (request) => qr.updateSettings(callerOf(request), request.body),
      );
    }
  };
