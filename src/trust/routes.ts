import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bind } from '../http/access.js';
import { errorResponses, Nullable } from '../schema/shapes.js';
import { TRUST_OPERATIONS as ops } from './operations.js';
import type { TrustService } from './service.js';

export const TrustScoreBody = Type.Object({
  short: Type.String({ description: 'Short code' }),
  destination: Nullable(Type.String({ description: 'The destination; null for a link with a click cap (maxClicks)' })),
  trustScore: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: '80-100 safe, 40-79 warning, 0-39 unsafe; null before the scan' })),
  trustStatus: Nullable(Type.Unsafe<'safe' | 'warning' | 'unsafe'>({ type: 'string', enum: ['safe', 'warning', 'unsafe'] })),
  threats: Type.Array(Type.String(), { description: 'Threat types found, e.g. MALWARE, SOCIAL_ENGINEERING' }),
  scannedAt: Nullable(Type.String({ format: 'date-time' })),
  source: Nullable(Type.String({ description: 'The scanning providers consulted' })),
  createdAt: Type.Number({ description: 'Link creation, Unix milliseconds' }),
});

/** Description B's public trust score: `GET /api/link-scan/:short`. */
export const linkScanRoutes =
  (trust: TrustService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/link-scan/:short',
      {
        config: bind(ops.score, 'B'),
        schema: {
          tags: ['trust (B)'],
          summary: "A link's trust score (public)",
          description: "For anyone, no key: how safe a short link's destination looks (0-100, and safe, warning or unsafe), from the scans run when it was made or re-pointed, and the threats found. Null before the first scan.",
          params: Type.Object({ short: Type.String({ description: 'The short code (or the URL-encoded prefix%2Fslug)' }) }),
          response: { 200: TrustScoreBody, ...errorResponses(404, 500) },
        },
      },
      async (request) => trust.score(request.params.short),
    );
  };
