import { ActionIcon, Anchor, Badge, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { IconChartBar, IconDots, IconPencil, IconTrash } from '@tabler/icons-react';
import { Link as RouterLink } from 'react-router';
import { CopyValue, formatDateTime, formatNumber } from '../components/ui';
import { shortPathOf, type Folder, type Link } from './api';

/** One link in the list: its short URL as text (what people copy), where it goes, and what can be done with it. */
export function LinkRow({ link, folder, onEdit, onDelete }: { link: Link; folder?: Folder; onEdit: () => void; onDelete: () => void }) {
  const page = `/links/${shortPathOf(link)}`;
  return (
    <Paper withBorder p="sm" radius="md" component="li" style={{ listStyle: 'none' }}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={4} wrap="nowrap">
            <Anchor component={RouterLink} to={page} fw={600} style={{ overflowWrap: 'anywhere' }}>
              {link.url}
            </Anchor>
            <CopyValue value={link.url} label="Copy short URL" />
          </Group>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {link.long}
          </Text>
          <Group gap="xs" mt={2}>
            <Text size="xs" c="dimmed">
              {formatNumber(link.clicks)} {link.clicks === 1 ? 'click' : 'clicks'} · created {formatDateTime(link.created)}
            </Text>
            {link.expiresAt && <Badge size="xs" variant="light" color="orange">Expires {formatDateTime(link.expiresAt)}</Badge>}
            {link.maxClicks !== null && <Badge size="xs" variant="light" color="orange">Max {link.maxClicks} clicks</Badge>}
            {folder && <Badge size="xs" variant="light" color="gray">{folder.name}</Badge>}
            {link.tags.map((tag) => (
              <Badge key={tag} size="xs" variant="outline">
                {tag}
              </Badge>
            ))}
          </Group>
        </Stack>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${link.url}`}>
              <IconDots size={18} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item component={RouterLink} to={page} leftSection={<IconChartBar size={14} aria-hidden />}>
              Statistics and QR code
            </Menu.Item>
            <Menu.Item leftSection={<IconPencil size={14} aria-hidden />} onClick={onEdit}>
              Edit
            </Menu.Item>
            <Menu.Item color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={onDelete}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Paper>
  );
}
