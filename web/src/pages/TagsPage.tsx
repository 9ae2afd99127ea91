import { ActionIcon, Anchor, Badge, Button, Group, Modal, Paper, SegmentedControl, Stack, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconPencil, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { snip, type Answer, type ApiErrorCode } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, formatNumber, isFormError, Loading, PageTitle } from '../components/ui';
import { fieldMessage } from '../errors';
import { LoadError } from '../organize/LoadError';

type TagCount = Answer<'/api/tags', 'get'>['tags'][number];

const links = (n: number) => `${formatNumber(n)} ${n === 1 ? 'link' : 'links'}`;
const NAME_CODES: ApiErrorCode[] = ['MISSING_NAME', 'INVALID_NAME', 'TAG_EXISTS'];

/** A tag's links, its list and its details changed: every view of them asks again. */
function useTagsChanged() {
  const queries = useQueryClient();
  return () => {
    for (const key of [['tags'], ['links'], ['link']]) void queries.invalidateQueries({ queryKey: key });
  };
}

/** Renames a tag on every link that carries it; a new spelling of the same tag ("sale" to "Sale") is a rename too. */
function RenameTagModal({ tag, onClose }: { tag: TagCount; onClose: () => void }) {
  const changed = useTagsChanged();
  const [name, setName] = useState(tag.tag);
  const rename = useMutation({
    mutationFn: () => snip.patch('/api/tags/{tag}', { params: { path: { tag: tag.tag } }, body: { name: name.trim() } }),
    onSuccess: (renamed) => {
      changed();
      notifications.show({ color: 'teal', message: `Tag “${tag.tag}” renamed to “${renamed.tag}” on ${links(renamed.linkCount)}` });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={`Rename tag ${tag.tag}`}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {isFormError(rename.error, NAME_CODES) && <ErrorNotice error={rename.error} title="Not renamed" />}
          <TextInput
            label="New name"
            description={`Changes the tag on the ${links(tag.linkCount)} that carry it. Up to 30 letters, digits, spaces, hyphens and underscores.`}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldMessage(rename.error, NAME_CODES, { name: 'New name' })}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={rename.isPending}>
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Takes a tag off every link that carries it, after asking; the links stay. */
function DeleteTagModal({ tag, onClose }: { tag: TagCount; onClose: () => void }) {
  const changed = useTagsChanged();
  const remove = useMutation({
    mutationFn: () => snip.delete('/api/tags/{tag}', { params: { path: { tag: tag.tag } } }),
    onSuccess: (deleted) => {
      changed();
      notifications.show({ color: 'teal', message: `Tag “${tag.tag}” deleted from ${links(deleted.linkCount)}` });
      onClose();
    },
  });
  return (
    <ConfirmModal title={`Delete tag ${tag.tag}?`} confirmLabel="Delete tag" busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate()} onClose={onClose}>
      The tag is taken off the {links(tag.linkCount)} that carry it. The links themselves stay as they are.
    </ConfirmModal>
  );
}

type Order = 'name' | 'links';

/** A filter box is worth its space only once the list is longer than a glance. */
const FILTER_FROM = 8;

function TagRow({ entry, onRename, onDelete }: { entry: TagCount; onRename: () => void; onDelete: () => void }) {
  const { tag, linkCount } = entry;
  return (
    <Table.Tr>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        <Badge variant="light" size="lg" style={{ textTransform: 'none', maxWidth: '100%' }}>
          {tag}
        </Badge>
      </Table.Td>
      <Table.Td ta="right">
        <Anchor component={Link} to={`/links?tag=${encodeURIComponent(tag)}`} aria-label={`${links(linkCount)} tagged ${tag}`}>
          {formatNumber(linkCount)}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Rename" withArrow>
            <ActionIcon variant="subtle" color="gray" onClick={onRename} aria-label={`Rename tag ${tag}`}>
              <IconPencil size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete" withArrow>
            <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={`Delete tag ${tag}`}>
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function TagTable({ tags, onRename, onDelete }: { tags: TagCount[]; onRename: (tag: TagCount) => void; onDelete: (tag: TagCount) => void }) {
  return (
    <Paper withBorder radius="md">
      <Table aria-label="Your tags" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Tag</Table.Th>
            <Table.Th ta="right">Links</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tags.map((entry) => (
            <TagRow key={entry.tag} entry={entry} onRename={() => onRename(entry)} onDelete={() => onDelete(entry)} />
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/**
 * Tags live on links: they are set on a link, and this page lists them with their counts and renames or deletes one
 * across all of the account's links at once.
 */
export function TagsPage() {
  const tags = useQuery({ queryKey: ['tags'], queryFn: () => snip.get('/api/tags') });
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState<Order>('name');
  const [renaming, setRenaming] = useState<TagCount | null>(null);
  const [deleting, setDeleting] = useState<TagCount | null>(null);
  const all = tags.data?.tags;
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const matching = (all ?? []).filter((t) => t.tag.toLowerCase().includes(needle));
    // The API sorts by name ignoring case; "most used" is the other order people ask for.
    return order === 'links' ? [...matching].sort((a, b) => b.linkCount - a.linkCount || a.tag.localeCompare(b.tag)) : matching;
  }, [all, filter, order]);

  return (
    <>
      <PageTitle
        title="Tags"
        description={
          <>
            Tags are set on links: add them under More options when you create a link on the{' '}
            <Anchor component={Link} to="/links" inherit>
              Links page
            </Anchor>
            , then filter the links by tag there. Renaming or deleting a tag here changes every link that carries it; a tag also disappears once no link carries it.
          </>
        }
      />
      {tags.isPending ? (
        <Loading label="Loading tags…" />
      ) : tags.isError ? (
        <LoadError error={tags.error} title="Could not load your tags" onRetry={() => void tags.refetch()} />
      ) : tags.data.tags.length === 0 ? (
        <EmptyState title="No tags yet">A tag appears here once a link carries it.</EmptyState>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
            <Text size="sm" c="dimmed">
              {tags.data.tags.length} {tags.data.tags.length === 1 ? 'tag' : 'tags'}
            </Text>
            <Group gap="sm" wrap="wrap" align="flex-end">
              {tags.data.tags.length >= FILTER_FROM && (
                <TextInput label="Filter tags" leftSection={<IconSearch size={14} aria-hidden />} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} w={200} />
              )}
              <SegmentedControl
                aria-label="Sort tags"
                value={order}
                onChange={(value) => setOrder(value as Order)}
                data={[
                  { value: 'name', label: 'By name' },
                  { value: 'links', label: 'Most links' },
                ]}
              />
            </Group>
          </Group>
          {shown.length === 0 ? <EmptyState title="No tag matches">Try another filter.</EmptyState> : <TagTable tags={shown} onRename={setRenaming} onDelete={setDeleting} />}
        </Stack>
      )}
      {renaming && <RenameTagModal tag={renaming} onClose={() => setRenaming(null)} />}
      {deleting && <DeleteTagModal tag={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}
