import { Badge, Group, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { EmptyState, ErrorNotice, Loading, PageTitle } from '../components/ui';

/** Tags exist through the links that carry them: this lists them; links are tagged when created. */
export function TagsPage() {
  const tags = useQuery({ queryKey: ['tags'], queryFn: () => api<{ tags: { tag: string; linkCount: number }[] }>('/api/tags') });
  return (
    <>
      <PageTitle title="Tags" description="Tag links when you create them (More options → Tags), then filter the links list by tag." />
      {tags.isPending ? (
        <Loading label="Loading tags…" />
      ) : tags.isError ? (
        <ErrorNotice error={tags.error} title="Could not load your tags" />
      ) : tags.data.tags.length === 0 ? (
        <EmptyState title="No tags yet">A tag appears here once a link carries it.</EmptyState>
      ) : (
        <Paper withBorder p="md" radius="md">
          <Group gap="sm" component="ul" p={0} m={0} aria-label="Your tags">
            {tags.data.tags.map(({ tag, linkCount }) => (
              <Badge key={tag} component="li" size="lg" variant="light" style={{ listStyle: 'none', textTransform: 'none' }} rightSection={<Text span size="xs">{linkCount}</Text>}>
                {tag}
              </Badge>
            ))}
          </Group>
        </Paper>
      )}
    </>
  );
}
