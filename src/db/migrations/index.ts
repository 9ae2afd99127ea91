import type { Migration } from 'kysely';
import { accountsAndLinks } from './0001-accounts-and-links.js';

/** One ordered migration set for SQLite and PostgreSQL alike; names sort in the order they apply. */
export const migrations: Record<string, Migration> = {
  '0001-accounts-and-links': accountsAndLinks,
};
