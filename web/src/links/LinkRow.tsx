import { ActionIcon, Anchor, Badge, Box, Group, Menu, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconChartBar, IconDots, IconPencil, IconTrash } from '@tabler/icons-react';
import { Link as RouterLink } from 'react-router';
import { CopyValue, formatNumber } from '../components/ui';
import { disabledReasonOf, shortLabelOf, shortPathOf, type Folder, type Link } from './api';
import { SiteAvatar } from './SiteAvatar';
import { Trend } from './Trend';

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * One link in the list, in two lines: its short path (the base URL is said once, above the list) with its folder and
 * tags, then where it goes; its clicks and creation day at the end. The short URL's base stays in the text, hidden
 * from sight only, so copying keeps the whole address, which is also the link's accessible name.
 */
export function LinkRow({ link, folder, trend, onEdit, onDelete }: { link: Link; folder?: Folder; trend?: readonly number[]; onEdit: () => void; onDelete: () => void }) {
  const page = `/links/${shortPathOf(link)}`;
  const label = shortLabelOf(link);
  const disabled = disabledReasonOf(link) !== null;
  return (
    <Box component="li" py={6} px={4} style={{ listStyle: 'none', borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Group wrap="nowrap" gap="sm" align="center">
        <SiteAvatar url={link.long} />
        <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={6} wrap="wrap" align="center" style={{ rowGap: 0 }}>
            {/* Named explicitly: Chrome would read the out-of-flow base and the path as two words. */}
            <Anchor component={RouterLink} to={page} fw={600} size="sm" style={{ whiteSpace: 'nowrap' }} aria-label={link.url}>
              {label.base && <VisuallyHidden component="span">{label.base}</VisuallyHidden>}
              {label.path}
            </Anchor>
            <CopyValue value={link.url} label="Copy short URL" />
            {disabled && (
              <Badge size="xs" variant="filled" color="red">
                Disabled
              </Badge>
            )}
            {link.expiresAt && (
              <Badge size="xs" variant="light" color="orange">
                Expires {day.format(new Date(link.expiresAt))}
              </Badge>
            )}
            {link.maxClicks !== null && (
              <Badge size="xs" variant="light" color="orange">
                Max {link.maxClicks}
              </Badge>
            )}
            {folder && (
              <Badge size="xs" variant="light" color="gray">
                {folder.name}
              </Badge>
            )}
            {link.tags.map((tag) => (
              <Badge key={tag} size="xs" variant="outline">
                {tag}
              </Badge>
            ))}
          </Group>
          <Text size="xs" c="dimmed" truncate="end" title={link.long}>
            {link.long}
          </Text>
        </Stack>
        {trend && (
          <Box visibleFrom="xs" style={{ flexShrink: 0 }}>
            <Trend days={trend} />
          </Box>
        )}
        <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {formatNumber(link.clicks)} {link.clicks === 1 ? 'click' : 'clicks'}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            <VisuallyHidden component="span">created </VisuallyHidden>
            {day.format(new Date(link.created))}
          </Text>
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
            {/* The operator disabled it: its owner may neither change nor delete it (its short path stays held). */}
            {!disabled && (
              <Menu.Item leftSection={<IconPencil size={14} aria-hidden />} onClick={onEdit}>
                Edit
              </Menu.Item>
            )}
            {!disabled && (
              <Menu.Item c="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={onDelete}>
                Delete
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Box>
  );
}
