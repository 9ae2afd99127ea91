import type { FolderListRow } from './repository.js';

/** A folder as services hand it around (spec 2.8's FolderObject). */
export interface Folder {
  id: string;
  name: string;
  /** `#RRGGBB`, upper case; null when the folder has no colour. */
  color: string | null;
  /** The account's links filed in it, counted when read. */
  linkCount: number;
  createdAt: string;
}

export const toFolder = (row: FolderListRow): Folder => ({
  id: row.id,
  name: row.name,
  color: row.color,
  // PostgreSQL answers count() as a bigint string.
  linkCount: Number(row.link_count),
  createdAt: row.created_at,
});
