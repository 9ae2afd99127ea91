import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { tierLabel } from '../plans.js';
import { errorResponses, Nullable } from '../schema/shapes.js';
import type { BulkOutcome } from './bulk-creator.js';
import { LinkItem } from './drafts.js';
import type { LinkPresenter } from './presenters.js';
import type { LinksService } from './service.js';
import { LINK_OPERATIONS as ops } from './operations.js';

export const BULK_MAX_A = 100;
export const BULK_MAX_B = 1_000;

/** Documented as the item it is (src/links/drafts.ts LinkItem); checked per item by it, not by the route. */
const BulkItem = Type.Unsafe<Static<typeof LinkItem>>({ ...LinkItem, description: 'Checked one by one: a bad item fails only itself' });

const bulkBody = (max: number) =>
  Type.Object({ urls: Type.Array(BulkItem, { minItems: 1, maxItems: max, description: `1 to ${max} links` }) });

const BulkResponse = Type.Object({
  success: Type.Boolean({ description: 'True when the request was processed; see summary for failures' }),
  summary: Type.Object({ total: Type.Integer(), created: Type.Integer(), failed: Type.Integer() }),
  results: Type.Array(
    Type.Object({
      index: Type.Integer(),
      url: Type.String(),
      success: Type.Boolean(),
      shortUrl: Type.Optional(Type.String({ format: 'uri' })),
      shortCode: Type.Optional(Type.String()),
      fullPath: Type.Optional(Nullable(Type.String())),
      error: Type.Optional(Type.String()),
      code: Type.Optional(Type.String({ description: 'Machine-readable reason, with error' })),
    }),
  ),
});

function present(outcomes: BulkOutcome[], links: LinkPresenter): Static<typeof BulkResponse> {
  const results = outcomes.map((o) =>
    'link' in o
      ? { index: o.index, url: o.url, success: true, shortUrl: links.shortUrl(o.link), shortCode: o.link.code, fullPath: links.fullPath(o.link) }
      : { index: o.index, url: o.url, success: false, error: o.error.message, code: o.error.code },
  );
  const created = results.filter((r) => r.success).length;
  return { success: true, summary: { total: results.length, created, failed: results.length - created }, results };
}

// Items are checked one at a time against the link input's schema (linkItemInput), not here, which would refuse
// the whole request for one bad item.
const perItemValidation = () => () => true;

/** Description A: POST /api/v1/bulk (Builder+, 100). Description B: POST /api/bulk (Pro+, 1,000). */
export const bulkRoutes =
  (links: LinksService, presenter: LinkPresenter): FastifyPluginAsyncTypebox =>
  async (app) => {
    const routes = [
      { url: '/api/v1/bulk', max: BULK_MAX_A, surface: 'A' as const, operation: ops.bulkCreateA, tags: ['links (A)'] },
      { url: '/api/bulk', max: BULK_MAX_B, surface: 'B' as const, operation: ops.bulkCreateB, tags: ['links (B)'] },
    ];
    for (const r of routes) {
      app.post(
        r.url,
        {
          config: bind(r.operation, r.surface),
          validatorCompiler: perItemValidation,
          schema: {
            tags: r.tags,
            summary: `Create up to ${r.max} links in one request`,
            description: `${tierLabel(r.operation.policy.minTier)} and above: makes many links in one request, each with the options of a single create. Each item is checked on its own: a bad one fails alone, and the answer gives every item's result in order.`,
            body: bulkBody(r.max),
            response: { 200: BulkResponse, ...errorResponses(400) },
          },
        },
        async (request) => {
          const body = request.body as { urls?: unknown } | undefined;
          return present(await links.createMany(callerOf(request), body?.urls, { maxItems: r.max }), presenter);
        },
      );
    }
  };
