import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { adminKeys, ADMIN_KEY } from './api';
import type { AccountPage, AdminAccount } from './types';

/**
 * Puts an account the API answered with into every loaded search at once, so the row shows the change before the
 * lists are read again; then the operator's other views (counts, the audit log) are refreshed.
 */
export function afterAccountChange(queries: QueryClient, changed: AdminAccount | { id: string; deleted: true }): void {
  queries.setQueriesData<InfiniteData<AccountPage>>({ queryKey: adminKeys.accountsAll }, (data) =>
    data && {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        accounts: 'deleted' in changed ? page.accounts.filter((a) => a.id !== changed.id) : page.accounts.map((a) => (a.id === changed.id ? changed : a)),
      })),
    },
  );
  void queries.invalidateQueries({ queryKey: ADMIN_KEY });
}
