import { Box, Button, Collapse, Group, Select, Text } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconDownload, IconFilter } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { snip } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, formatNumber, Loading, PageTitle } from '../components/ui';
import {
  DEFAULT_PAGE_SIZE,
  defaultBaseOf,
  deleteLink,
  exportLinks,
  givenFilters,
  listLinks,
  PAGE_SIZES,
  saveFile,
  totalOf,
  type ExportFormat,
  type Link,
  type LinkFilters as Filters,
  type PageSize,
} from '../links/api';
import { CreateLinkForm } from '../links/CreateLinkForm';
import { EditLinkModal } from '../links/EditLinkModal';
import { LinkFilters } from '../links/LinkFilters';
import { LinkRow } from '../links/LinkRow';

const plural = (n: number) => `${formatNumber(n)} ${n === 1 ? 'link' : 'links'}`;

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
  const [pageSize, setPageSize] = useState<PageSize>(DEFAULT_PAGE_SIZE);
  const [debounced] = useDebouncedValue(filters, 250);
  const [editing, setEditing] = useState<Link | null>(null);
  const [deleting, setDeleting] = useState<Link | null>(null);
  // On a phone the filters wait behind a button, so the links themselves come first; read at once, not after a paint.
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const [filtersOpen, setFiltersOpen] = useState(false);

  const links = useQuery({ queryKey: ['links', debounced, page, pageSize], queryFn: () => listLinks(debounced, page, pageSize), placeholderData: keepPreviousData });
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
  // The filters in effect when the button is pressed: the file holds what the list shows then, every page of it.
  const download = useMutation({
    mutationFn: (format: ExportFormat) => exportLinks(filters, format),
    onSuccess: ({ file, filename }) => saveFile(file, filename),
  });

  const changeFilters = (next: Filters) => {
    setFilters(next);
    setPage(1);
  };
  const activeFilters = Object.keys(givenFilters(filters)).length;
  const filtered = activeFilters > 0;
  const list = links.data?.links ?? [];
  // One request for the page's 7-day trends, never one per row.
  const ids = list.map((l) => l.id).join(',');
  const trends = useQuery({
    queryKey: ['link-trends', ids],
    queryFn: () => snip.get('/api/analytics/link-trends', { params: { query: { ids } } }),
    enabled: ids !== '',
    placeholderData: keepPreviousData,
  });
  const trendOf = (id: string) => trends.data?.trends.find((t) => t.id === id)?.days;
  const total = links.data ? totalOf(links.data) : undefined;
  const base = defaultBaseOf(list);
  const first = (page - 1) * pageSize + 1;
  const count =
    total === undefined
      ? `${formatNumber(first)}–${formatNumber(first + list.length - 1)} of more than ${formatNumber(first + list.length - 1)} links`
      : filtered
        ? `${plural(total)} match`
        : plural(total);

  return (
    <>
      <PageTitle
        title="Links"
        description={
          <>
            <span aria-live="polite">{links.data ? count : ''}</span>
            {wide && base && <span> · short URLs start with {base}/</span>}
          </>
        }
        actions={
          <Group gap="xs" wrap="nowrap">
            {!wide && (
              <Button
                size={wide ? 'xs' : 'compact-sm'}
                variant={filtersOpen ? 'light' : 'default'}
                leftSection={<IconFilter size={14} aria-hidden />}
                onClick={() => setFiltersOpen((open) => !open)}
                aria-expanded={filtersOpen}
                aria-controls="link-filters"
              >
                Filters{activeFilters > 0 ? ` (${activeFilters})` : ''}
              </Button>
            )}
            {(['csv', 'json'] as const).map((format) => (
              <Button
                key={format}
                size={wide ? 'xs' : 'compact-sm'}
                variant="default"
                leftSection={<IconDownload size={14} aria-hidden />}
                loading={download.isPending && download.variables === format}
                disabled={list.length === 0}
                onClick={() => download.mutate(format)}
                // On a phone the button says only the format; its name still says what it does.
                aria-label={`Export ${format.toUpperCase()}`}
              >
                {wide ? `Export ${format.toUpperCase()}` : format.toUpperCase()}
              </Button>
            ))}
          </Group>
        }
      />
      <CreateLinkForm />
      <ErrorNotice error={download.error} title="The export did not work" />
      <Collapse expanded={wide || filtersOpen} id="link-filters">
        <LinkFilters filters={filters} folders={folderList} onChange={changeFilters} />
      </Collapse>
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
        <Box component="ul" p={0} m={0} aria-label="Your links" aria-busy={links.isFetching} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          {list.map((link) => (
            <LinkRow key={link.id} link={link} folder={folderList.find((f) => f.id === link.folderId)} trend={trendOf(link.id)} onEdit={() => setEditing(link)} onDelete={() => setDeleting(link)} />
          ))}
        </Box>
      )}
      {!wide && base && (
        <Text size="xs" c="dimmed" mt="xs">
          Short URLs start with {base}/
        </Text>
      )}
      {list.length > 0 && (
        <Group justify="space-between" mt="md" gap="xs" component="nav" aria-label="Pages of links">
          <Group gap="xs">
            <Button variant="default" size="xs" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
              Previous page
            </Button>
            <Text size="sm">Page {page}</Text>
            <Button variant="default" size="xs" disabled={!links.data?.pagination.hasMore} onClick={() => setPage((p) => p + 1)}>
              Next page
            </Button>
          </Group>
          <Select
            label="Links per page"
            size="xs"
            w={130}
            allowDeselect={false}
            data={PAGE_SIZES.map(String)}
            value={String(pageSize)}
            onChange={(value) => {
              setPageSize(Number(value) as PageSize);
              setPage(1);
            }}
          />
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
