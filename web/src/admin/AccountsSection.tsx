import { Alert, Button, CloseButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, Loading } from '../components/ui';
import { PROFILE_KEY } from '../profile';
import { useAccount, useSession } from '../session';
import { AccountCard, type AccountActions } from './AccountCard';
import { DisableAccountModal, PasswordResetModal } from './AccountDialogs';
import { afterAccountChange } from './account-cache';
import { AdminError } from './AdminError';
import { adminApi, adminKeys } from './api';
import { adminMessage } from './messages';
import { count, planLabel } from './plans';
import type { AdminAccount, DeletedAccount, PasswordReset } from './types';

const PAGE = 50;

const failed = (title: string) => (error: unknown) => notifications.show({ color: 'red', title, message: adminMessage(error) });

/** Every account on the server: find one by email, change its plan or role, disable, reset or delete it. */
export function AccountsSection() {
  const me = useAccount();
  const session = useSession();
  const queries = useQueryClient();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [disabling, setDisabling] = useState<AdminAccount | null>(null);
  const [deleting, setDeleting] = useState<AdminAccount | null>(null);
  const [reset, setReset] = useState<{ email: string; reset: PasswordReset } | null>(null);
  const [deleted, setDeleted] = useState<{ email: string; summary: DeletedAccount } | null>(null);

  const list = useInfiniteQuery({
    queryKey: adminKeys.accounts(q),
    queryFn: ({ pageParam }) => adminApi.accounts(q, pageParam, PAGE),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, page) => n + page.accounts.length, 0);
      return loaded < last.total && last.accounts.length > 0 ? loaded : undefined;
    },
  });

  const changed = (account: AdminAccount) => {
    afterAccountChange(queries, account);
    // The operator's own plan shows in the menu and the plan page: read the session again.
    if (account.id === me.id) {
      void session.refresh().catch(() => undefined);
      void queries.invalidateQueries({ queryKey: PROFILE_KEY });
    }
  };

  const plan = useMutation({
    mutationFn: ({ account, tier }: { account: AdminAccount; tier: AdminAccount['tier'] }) => adminApi.setPlan(account.id, tier),
    onSuccess: (account) => {
      changed(account);
      notifications.show({ color: 'teal', message: `${account.email} is now on the ${planLabel(account.tier)} plan` });
    },
    onError: failed('The plan did not change'),
  });
  const role = useMutation({
    mutationFn: ({ account, role }: { account: AdminAccount; role: AdminAccount['role'] }) => adminApi.setRole(account.id, role),
    onSuccess: (account) => {
      changed(account);
      notifications.show({ color: 'teal', message: account.role === 'operator' ? `${account.email} is now an operator` : `${account.email} is no longer an operator` });
    },
    onError: failed('The role did not change'),
  });
  const disable = useMutation({
    mutationFn: ({ account, reason }: { account: AdminAccount; reason: string }) => adminApi.disable(account.id, reason),
    onSuccess: (account) => {
      changed(account);
      setDisabling(null);
      notifications.show({ color: 'teal', message: `${account.email} is disabled: its sessions and keys no longer work` });
    },
  });
  const enable = useMutation({
    mutationFn: (account: AdminAccount) => adminApi.enable(account.id),
    onSuccess: (account) => {
      changed(account);
      notifications.show({ color: 'teal', message: `${account.email} is enabled again` });
    },
    onError: failed('The account was not enabled'),
  });
  const resetPassword = useMutation({
    mutationFn: (account: AdminAccount) => adminApi.resetPassword(account.id),
    onSuccess: (answer, account) => {
      setReset({ email: account.email, reset: answer });
      void queries.invalidateQueries({ queryKey: adminKeys.audit });
    },
    onError: failed('No reset link was made'),
  });
  const remove = useMutation({
    mutationFn: (account: AdminAccount) => adminApi.deleteAccount(account.id),
    onSuccess: (summary, account) => {
      afterAccountChange(queries, { id: account.id, deleted: true });
      setDeleting(null);
      setDeleted({ email: account.email, summary });
    },
  });

  const actions: AccountActions = {
    setPlan: (account, tier) => plan.mutate({ account, tier }),
    setRole: (account, next) => role.mutate({ account, role: next }),
    disable: (account) => {
      disable.reset();
      setDisabling(account);
    },
    enable: (account) => enable.mutate(account),
    resetPassword: (account) => resetPassword.mutate(account),
    delete: (account) => {
      remove.reset();
      setDeleting(account);
    },
  };
  // The account a change is under way for: its controls wait for the answer.
  const busyAccountId = plan.isPending
    ? plan.variables.account.id
    : role.isPending
      ? role.variables.account.id
      : enable.isPending
        ? enable.variables.id
        : resetPassword.isPending
          ? resetPassword.variables.id
          : undefined;

  const accounts = list.data?.pages.flatMap((page) => page.accounts) ?? [];
  const total = list.data?.pages[0]?.total;

  return (
    <Stack gap="sm">
      <TextInput
        label="Search accounts"
        description="Part of an email address"
        type="search"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={420}
      />
      {deleted && (
        <Alert color="teal" role="status" title={`${deleted.email} was deleted`}>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text size="sm">
              With it went {count(deleted.summary.links, 'link')}, {count(deleted.summary.apiKeys, 'API key')} and {count(deleted.summary.clicks, 'recorded click')}.
            </Text>
            <CloseButton aria-label="Dismiss" onClick={() => setDeleted(null)} />
          </Group>
        </Alert>
      )}
      {list.isPending ? (
        <Loading label="Loading accounts…" />
      ) : list.isError ? (
        <AdminError error={list.error} title="Could not load the accounts" />
      ) : accounts.length === 0 ? (
        <EmptyState title={q ? `No account matches “${q}”` : 'No accounts yet'} />
      ) : (
        <>
          <Text size="sm" aria-live="polite">
            {q ? `${count(total ?? accounts.length, 'account')} match “${q}”` : `${count(total ?? accounts.length, 'account')} on this server`}
          </Text>
          <Stack component="ul" gap="xs" p={0} m={0} aria-label="Accounts">
            {accounts.map((account) => (
              <AccountCard key={account.id} account={account} self={account.id === me.id} busy={busyAccountId === account.id} actions={actions} />
            ))}
          </Stack>
          {list.hasNextPage && (
            <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage} style={{ alignSelf: 'flex-start' }}>
              Show more accounts
            </Button>
          )}
        </>
      )}

      {disabling && (
        <DisableAccountModal
          account={disabling}
          busy={disable.isPending}
          error={disable.error}
          onConfirm={(reason) => disable.mutate({ account: disabling, reason })}
          onClose={() => setDisabling(null)}
        />
      )}
      {deleting && (
        <ConfirmModal
          title={`Delete ${deleting.email}?`}
          confirmLabel="Delete account"
          busy={remove.isPending}
          error={remove.error ? new Error(adminMessage(remove.error)) : null}
          onConfirm={() => remove.mutate(deleting)}
          onClose={() => setDeleting(null)}
        >
          The account goes with its {count(deleting.linkCount, 'link')} (they stop redirecting), its API keys, statistics and sessions. This cannot be undone; to stop an
          account but keep its links working, disable it instead.
        </ConfirmModal>
      )}
      {reset && <PasswordResetModal email={reset.email} reset={reset.reset} onClose={() => setReset(null)} />}
    </Stack>
  );
}
