import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bind, callerOf } from '../http/access.js';
import { tierLabel } from '../plans.js';
import { errorResponses } from '../schema/shapes.js';
import { IMPORT_OPERATIONS as ops } from './operations.js';
import { ImportBody, ImportSummary } from './schemas.js';
import type { ImportService } from './service.js';

/**
 * POST /api/v1/imports (A) and /api/imports (B): every link of another shortener for the caller, charged and limited
 * as bulk creation. The answer comes when the import is done; `dryRun` shows it first. The source must be on the
 * public internet unless the operator set IMPORT_ALLOW_PRIVATE.
 */
export const importRoutes =
  (imports: ImportService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const routes = [
      { url: '/api/v1/imports', surface: 'A' as const, operation: ops.importA, tags: ['links (A)'] },
      { url: '/api/imports', surface: 'B' as const, operation: ops.importB, tags: ['links (B)'] },
    ];
    for (const r of routes) {
      app.post(
        r.url,
        {
          config: bind(r.operation, r.surface),
          schema: {
            tags: r.tags,
            summary: 'Import every link of another shortener (Shlink, Kutt, YOURLS, Bitly, Dub)',
            description: `${tierLabel(r.operation.policy.minTier)} and above. Reads the source's API with the key given (never stored) and makes its links: a link whose domain is Snip's host or one of the caller's active domains keeps its exact short path there, others get new codes and keep their old URL in importedFrom. A path taken on Snip fails only its row; links imported before are skipped, so an import that stopped (the source failed part-way: see error) continues when run again. Charged as bulk creation, and each link made counts against the daily link limit.`,
            body: ImportBody,
            response: { 200: ImportSummary, ...errorResponses(400, 403, 404) },
          },
        },
        async (request) => imports.fromSource(callerOf(request), request.body, 'api'),
      );
    }
  };
