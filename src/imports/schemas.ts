import { Type } from '@sinclair/typebox';
import { named } from '../schema/names.js';
import { Nullable, StringEnum } from '../schema/shapes.js';
import { SOURCE_NAMES } from './source.js';

export const ImportBody = named('ImportFromSourceInput', 'What to import, and from where', Type.Object(
  {
    from: StringEnum(SOURCE_NAMES, { description: 'The shortener the links come from' }),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "The base URL of its API (Shlink's, Kutt's or YOURLS's own address; Bitly's and Dub's public APIs when left out)" })),
    sourceKey: Type.String({ minLength: 1, maxLength: 4096, description: 'Its API key or token; used for this import only, never stored' }),
    domain: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: "Where links whose domain stays behind get their new codes: one of the caller's active domains (default: the caller's default)" })),
    withClicks: Type.Optional(Type.Boolean({ description: "Shlink's visits as click records; Bitly's click totals (one request per link). Other sources' totals come along anyway" })),
    dryRun: Type.Optional(Type.Boolean({ description: 'Fetch and check everything, and make nothing: the answer says what would happen to each link' })),
  },
  { additionalProperties: false },
));

const ImportRow = Type.Object({
  source: Type.String({ description: 'The short URL at the source' }),
  shortUrl: Nullable(Type.String({ description: 'Where it answers on Snip; null when it was not made' })),
  outcome: StringEnum(['imported', 'skipped', 'failed'] as const),
  code: Type.Optional(Type.String({ description: 'Why it was skipped or failed (PATH_TAKEN, ALREADY_IMPORTED, ENDED_AT_SOURCE, ...), or NEW_PATH for a link that could not keep its path' })),
  message: Type.Optional(Type.String()),
});

export const ImportSummary = named('ImportFromSourceResult', 'What became of every link of the source', Type.Object({
  from: StringEnum(SOURCE_NAMES),
  dryRun: Type.Boolean(),
  imported: Type.Integer({ description: 'Links made (in a dry run: that would be made)' }),
  skipped: Type.Integer({ description: 'Links imported by an earlier run, or that no longer redirect at the source' }),
  failed: Type.Integer(),
  clicks: Type.Integer({ description: 'Clicks brought over: visits recorded as clicks, and source totals kept apart as imported clicks' }),
  rows: Type.Array(ImportRow),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { description: 'The source failed part-way: what came before is imported; importing again continues' })),
}));
