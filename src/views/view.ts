import type { ViewFilters } from './filters.js';
import type { SavedViewRow } from './repository.js';

/** A saved view as every surface shows it: a named link-list filter. */
export interface SavedView {
  id: string;
  name: string;
  filters: ViewFilters;
  createdAt: string;
  updatedAt: string;
}

/** The stored filters; they were checked when written. */
export const filtersOf = (row: Pick<SavedViewRow, 'filters'>): ViewFilters => JSON.parse(row.filters) as ViewFilters;

export const toView = (row: SavedViewRow): SavedView => ({
  id: row.id,
  name: row.name,
  filters: filtersOf(row),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
