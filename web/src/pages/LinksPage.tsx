import { Button, Group, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { snip } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, Loading, PageTitle } from '../components/ui';
import { deleteLink, listLinks, type Link, type LinkFilters as Filters } from '../links/api';
import { CreateLinkForm } from '../links/CreateLinkForm';
import { EditLinkModal } from '../links/EditLinkModal';
import { LinkFilters } from '../links/LinkFilters';
import { LinkRow } from '../links/LinkRow';

export function LinksPage() {
  const queries = useQueryClient();
  // A filter can come in the address (/links?tag=launch, from the Tags and Folders pages), so such links can be shared.
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<Filters>(() => ({
    search: params.get('search') ?? undefined,
    folderId: params.get('folderId') ?? undefined,
    tag: params.get('tag') ?? undefined,
  }));
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(filters, 250);
  const [editing, setEditing] = useState<Link | null>(null);
  const [deleting, setDeleting] = useState<Link | null>(null);

  const links = useQuery({ queryKey: ['links', debounced, page], queryFn: () => listLinks(debounced, page), placeholderData: keepPreviousData });
  const folders = useQuery({ queryKey: ['folders'], queryFn: () => snip.get('/api/folders') });
  const folderList = folders.data?.folders ?? [];
  const remove = useMutation({
    mutationFn: (link: Link) => deleteLink(link),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['links'] });
      notifications.show({ color: 'teal', message: 'Link deleted' });
      setDeleting(null);
    },
  });

  const changeFilters = (next: Filters) => {
    setFilters(next);
    setPage(1);
  };
  const filtered = Boolean(filters.search || filters.folderId || filters.tag);
  const list = links.data?.links ?? [];

  return (
    <>
      <PageTitle title="Links" />
      <CreateLinkForm />
      <LinkFilters filters={filters} folders={folderList} onChange={changeFilters} />
      {links.isPending ? (
        <Loading label="Loading links…" />
      ) : links.isError ? (
        <ErrorNotice error={links.error} title="Could not load your links" />
      ) : list.length === 0 ? (
        filtered ? (
          <EmptyState title="No links match these filters">Change the search or clear the filters.</EmptyState>
        ) : (
          <EmptyState title="No links yet">Paste a long URL above and press Create link: its short URL appears here.</EmptyState>
        )
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} aria-label="Your links" aria-busy={links.isFetching}>
          {list.map((link) => (
            <LinkRow key={link.id} link={link} folder={folderList.find((f) => f.id === link.folderId)} onEdit={() => setEditing(link)} onDelete={() => setDeleting(link)} />
          ))}
        </Stack>
      )}
      {(page > 1 || links.data?.pagination.hasMore) && (
        <Group justify="space-between" mt="md" component="nav" aria-label="Pages of links">
          <Button variant="default" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
            Previous page
          </Button>
          <Text size="sm" c="dimmed">
            Page {page}
          </Text>
          <Button variant="default" disabled={!links.data?.pagination.hasMore} onClick={() => setPage((p) => p + 1)}>
            Next page
          </Button>
        </Group>
      )}
      {editing && <EditLinkModal link={editing} folders={folderList} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmModal
          title="Delete this link?"
          confirmLabel="Delete link"
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(deleting)}
          onClose={() => {
            remove.reset();
            setDeleting(null);
          }}
        >
          {deleting.url} will stop redirecting, and its statistics go with it. This cannot be undone.
        </ConfirmModal>
      )}
    </>
  );
}
