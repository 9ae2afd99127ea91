import type { Selectable } from 'kysely';
import type { LinksTable } from '../db/schema.js';

/** A row of the links table as Kysely reads it; `toLink` (link.ts) turns it into the `Link` services hand around. */
export type LinkRow = Selectable<LinksTable>;
