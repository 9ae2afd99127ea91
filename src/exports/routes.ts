import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SocialPreview } from '../links/input.js';
import { Rules, Variants } from '../links/routing.js';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { BreakdownFields } from '../analytics/schemas.js';
import { PERIODS } from '../analytics/service.js';
import { bind, callerOf } from '../http/access.js';
import { DateTime, errorResponses, Nullable } from '../schema/shapes.js';
import { ListQuery, ShortPathParams } from '../links/schemas.js';
import { EXPORT_OPERATIONS as ops } from './operations.js';
import { DEFAULT_EXPORT_FORMAT, DEFAULT_STATS_PERIOD, EXPORT_FORMATS, type ExportFile, type ExportsService, type StreamedExportFile } from './service.js';

const FormatField = Type.Union(
  EXPORT_FORMATS.map((f) => Type.Literal(f)),
  { default: DEFAULT_EXPORT_FORMAT, description: 'csv (a header row, RFC 4180 quoting) or json' },
);
const ExportQuery = Type.Object({ format: Type.Optional(FormatField) });
/** The link list's filters (GET /api/links, /api/v1/links), with the same meaning: an export of what the list shows. */
const LinksExportQuery = Type.Composite([ExportQuery, Type.Pick(ListQuery, ['folderId', 'tag', 'domain', 'search'])]);
const StatsExportQuery = Type.Object({
  format: Type.Optional(FormatField),
  period: Type.Optional(Type.Union(PERIODS.map((p) => Type.Literal(p)), { default: DEFAULT_STATS_PERIOD })),
});

const ExportedLink = Type.Object({
  shortCode: Type.String(),
  shortUrl: Type.String({ format: 'uri', description: "Full short URL, on the link's custom domain if it has one" }),
  fullPath: Nullable(Type.String({ description: '<prefix>/<slug> for namespaced links' })),
  destination: Type.String({ format: 'uri' }),
  clicks: Type.Integer(),
  createdAt: DateTime(),
  expiresAt: Nullable(DateTime()),
  maxClicks: Nullable(Type.Integer()),
  activeFrom: Nullable(DateTime('When a scheduled link starts redirecting; null once it has started')),
  folderId: Nullable(Type.String()),
  blockedCountries: Type.Array(Type.String(), { description: 'In CSV: one cell, comma-separated' }),
  domain: Nullable(Type.String()),
  // JSON only, and only where the link has them: links import reads them back.
  rules: Type.Optional(Rules),
  variants: Type.Optional(Variants),
  expiredUrl: Type.Optional(Type.String({ format: 'uri' })),
  socialPreview: Type.Optional(SocialPreview),
  passwordProtected: Type.Optional(Type.Literal(true, { description: 'The link has a password (never exported)' })),
});
const LinksExport = Type.Object({ links: Type.Array(ExportedLink, { description: 'Newest first' }) });
const StatsExport = Type.Object({
  shortCode: Type.String(),
  fullPath: Nullable(Type.String()),
  shortUrl: Type.String({ format: 'uri' }),
  period: Type.String(),
  ...BreakdownFields,
});

const CSV_COLUMNS_NOTE =
  'Text cells starting with = + - @, tab or CR are prefixed with an apostrophe, so spreadsheets do not run them as formulas.';
/** A file answer in either format; OpenAPI lists both media types (the JSON one with its shape). */
const fileResponse = (description: string, json: TSchema) => ({
  description: `${description} Sent as an attachment (Content-Disposition). ${CSV_COLUMNS_NOTE}`,
  content: { 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: json } },
});

const attachment = (reply: FastifyReply, file: Omit<ExportFile, 'body'>) =>
  reply.header('content-disposition', `attachment; filename="${file.filename}"`).header('cache-control', 'no-store').type(file.contentType);

const send = (reply: FastifyReply, file: ExportFile) => attachment(reply, file).send(file.body);

/**
 * A links file, a page of links at a time, each page read from the database only when the socket has taken the one
 * before: however many links, one page is in memory, and a slow reader slows only its own export, never the loop.
 */
async function* utf8(parts: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const text of parts) yield Buffer.from(text, 'utf8');
}
const stream = (reply: FastifyReply, file: StreamedExportFile) => attachment(reply, file).send(Readable.from(utf8(file.parts), { objectMode: false, highWaterMark: 0 }));

/**
 * Exports (spec 4.3 `export_links`, `export_link_stats`) on Description A (/api/v1/export/...) and B
 * (/api/export/...): Pro and up, like the rest of the API.
 */
export const exportRoutes =
  (exports: ExportsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const [surface, base, tags] of [
      ['A', '/api/v1/export', ['export (A)']],
      ['B', '/api/export', ['export (B)']],
    ] as const) {
      app.get(
        `${base}/links`,
        {
          config: bind(ops.links, surface),
          schema: {
            tags,
            summary: "The caller's links, all or as the link list filters them, as CSV or JSON (the operator CLI's `links import` reads both back)",
            description:
              "Downloads every link of the caller's as one CSV or JSON file, newest first: to keep a copy, or to move the links to another Snip with the operator CLI's `links import`, which reads both formats. The link list's filters (folderId, tag, domain, search) keep only the links that list shows with them.",
            querystring: LinksExportQuery,
            response: {
              200: fileResponse('CSV columns: shortCode, shortUrl, fullPath, destination, clicks, createdAt, expiresAt, maxClicks, activeFrom, folderId, blockedCountries, domain.', LinksExport),
              ...errorResponses(400, 404),
            },
          },
        },
        async (request, reply) => {
          const { format, folderId, tag, domain, search } = request.query;
          return stream(reply, await exports.linksFile(callerOf(request), { format, folderId, tag, domain, search }));
        },
      );
      app.get(
        `${base}/links/:shortPath/stats`,
        {
          config: bind(ops.linkStats, surface),
          schema: {
            tags,
            summary: "A link's aggregated statistics over a period, as CSV or JSON; a period beyond the plan's history is 403",
            description: "Downloads the statistics of one of the caller's links over a period as a CSV or JSON file: totals, distinct visitors, and clicks by day, country, device, browser, system, referring site and hour. A period longer than the plan keeps is refused.",
            params: ShortPathParams,
            querystring: StatsExportQuery,
            response: {
              200: fileResponse('CSV rows: dimension,value,clicks (total, unique_visitors, day, country, device, browser, os, referrer, hour).', StatsExport),
              ...errorResponses(400, 404),
            },
          },
        },
        async (request, reply) => {
          const { format, period } = request.query;
          return send(reply, await exports.linkStats(callerOf(request), request.params.shortPath, { format, period }));
        },
      );
    }
  };
