import { Anchor, Badge, Group, Paper, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { snip, type Answer } from '../api';
import { EmptyState, formatNumber, Loading, PageTitle } from '../components/ui';
import { LoadError } from '../organize/LoadError';

type TagCount = Answer<'/api/tags', 'get'>['tags'][number];

type Order = 'name' | 'links';

/** A filter box is worth its space only once the list is longer than a glance. */
const FILTER_FROM = 8;

function TagTable({ tags }: { tags: TagCount[] }) {
  return (
    <Paper withBorder radius="md">
      <Table aria-label="Your tags" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Tag</Table.Th>
            <Table.Th ta="right">Links</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tags.map(({ tag, linkCount }) => (
            <Table.Tr key={tag}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Badge variant="light" size="lg" style={{ textTransform: 'none', maxWidth: '100%' }}>
                  {tag}
                </Badge>
              </Table.Td>
              <Table.Td ta="right">
                <Anchor component={Link} to={`/links?tag=${encodeURIComponent(tag)}`} aria-label={`${linkCount} links tagged ${tag}`}>
                  {formatNumber(linkCount)}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/**
 * Tags live on links: the API lists them with their counts and tags or untags one link at a time, but has no
 * rename or delete for a tag as such, so this page lists and explains.
 */
export function TagsPage() {
  const tags = useQuery({ queryKey: ['tags'], queryFn: () => snip.get('/api/tags') });
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState<Order>('name');
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
            , then filter the links by tag there. Tags cannot be renamed or deleted as such; a tag disappears once no link carries it.
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
          {shown.length === 0 ? <EmptyState title="No tag matches">Try another filter.</EmptyState> : <TagTable tags={shown} />}
        </Stack>
      )}
    </>
  );
}
