import { ActionIcon, Button, Group, Popover, Select, SimpleGrid, Stack, TextInput, Tooltip } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { snip } from '../api';
import { ErrorNotice } from '../components/ui';
import type { Folder, LinkFilters as Filters } from './api';

/** Search, folder and tag filters, and saved views: a view is a named set of these filters (the views API). */
export function LinkFilters({ filters, folders, onChange }: { filters: Filters; folders: Folder[]; onChange: (filters: Filters) => void }) {
  const queries = useQueryClient();
  const tags = useQuery({ queryKey: ['tags'], queryFn: () => snip.get('/api/tags') });
  const views = useQuery({ queryKey: ['views'], queryFn: () => snip.get('/api/views') });
  const [viewId, setViewId] = useState<string | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');

  const save = useMutation({
    mutationFn: () => snip.post('/api/views', { body: { name: name.trim(), filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) } }),
    onSuccess: (view) => {
      void queries.invalidateQueries({ queryKey: ['views'] });
      setViewId(view.id);
      setNaming(false);
      setName('');
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => snip.delete('/api/views/{id}', { params: { path: { id } } }),
    onSuccess: () => {
      setViewId(null);
      void queries.invalidateQueries({ queryKey: ['views'] });
    },
  });

  const applyView = (id: string | null) => {
    setViewId(id);
    const view = views.data?.views.find((v) => v.id === id);
    onChange(view ? { ...view.filters } : {});
  };

  return (
    <Stack gap="xs" mb="md">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
        <TextInput label="Search" placeholder="Destination or short path" type="search" value={filters.search ?? ''} onChange={(e) => onChange({ ...filters, search: e.currentTarget.value })} />
        <Select label="Folder" placeholder="All folders" clearable data={folders.map((f) => ({ value: f.id, label: f.name }))} value={filters.folderId ?? null} onChange={(v) => onChange({ ...filters, folderId: v ?? undefined })} />
        <Select label="Tag" placeholder="All tags" clearable searchable data={(tags.data?.tags ?? []).map((t) => t.tag)} value={filters.tag ?? null} onChange={(v) => onChange({ ...filters, tag: v ?? undefined })} />
        <Group gap={4} align="flex-end" wrap="nowrap">
          <Select
            label="Saved view"
            placeholder="None"
            clearable
            data={(views.data?.views ?? []).map((v) => ({ value: v.id, label: v.name }))}
            value={viewId}
            onChange={applyView}
            style={{ flex: 1 }}
          />
          {viewId && (
            <Tooltip label="Delete this view">
              <ActionIcon variant="subtle" color="red" size="lg" aria-label="Delete saved view" onClick={() => remove.mutate(viewId)} loading={remove.isPending}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </SimpleGrid>
      <Group gap="xs">
        <Popover opened={naming} onChange={setNaming} trapFocus position="bottom-start" withinPortal>
          <Popover.Target>
            <Button variant="subtle" size="xs" onClick={() => setNaming((o) => !o)}>
              Save these filters as a view
            </Button>
          </Popover.Target>
          <Popover.Dropdown>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                save.mutate();
              }}
            >
              <Stack gap="xs">
                <TextInput label="View name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
                <ErrorNotice error={save.error} title="Not saved" />
                <Button type="submit" size="xs" loading={save.isPending}>
                  Save view
                </Button>
              </Stack>
            </form>
          </Popover.Dropdown>
        </Popover>
        {(filters.search || filters.folderId || filters.tag) && (
          <Button variant="subtle" size="xs" color="gray" onClick={() => applyView(null)}>
            Clear filters
          </Button>
        )}
      </Group>
    </Stack>
  );
}
