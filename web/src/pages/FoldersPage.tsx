import { ActionIcon, Badge, ColorSwatch, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, formatDateTime, Loading, PageTitle, PlanHint } from '../components/ui';
import { FolderForm } from '../organize/FolderForm';
import { deleteFolder, FOLDERS_KEY, linkCount, listFolders, type Folder, type FolderList } from '../organize/folders';
import { LoadError } from '../organize/LoadError';

const countText = (data: FolderList) =>
  data.limit === 'unlimited' ? `${data.folders.length} ${data.folders.length === 1 ? 'folder' : 'folders'}, no limit on your plan` : `${data.folders.length} of ${data.limit} folders`;

function FolderItem({ folder, onEdit, onDelete }: { folder: Folder; onEdit: () => void; onDelete: () => void }) {
  return (
    <Paper withBorder p="sm" radius="md" component="li" style={{ listStyle: 'none' }}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <ColorSwatch color={folder.color ?? 'var(--mantine-color-gray-3)'} size={14} aria-hidden />
            <Text fw={600} truncate>
              {folder.name}
            </Text>
          </Group>
          <Group gap="xs">
            <Badge variant="light" color="gray" size="sm">
              {linkCount(folder.linkCount)}
            </Badge>
            <Text size="xs" c="dimmed">
              Created {formatDateTime(folder.createdAt)}
            </Text>
          </Group>
        </Stack>
        <Group gap={4} wrap="nowrap">
          <ActionIcon variant="subtle" size="lg" aria-label={`Edit folder ${folder.name}`} onClick={onEdit}>
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
          <ActionIcon variant="subtle" size="lg" color="red" aria-label={`Delete folder ${folder.name}`} onClick={onDelete}>
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Group>
      </Group>
    </Paper>
  );
}

/** The create form while one more folder fits; at the plan's limit, why not and what would allow more. */
function CreateSection({ data }: { data: FolderList }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        New folder
      </Title>
      {data.canCreate ? (
        <FolderForm />
      ) : (
        <Stack gap="xs">
          <Text size="sm">
            You have {countText(data)}, the most your plan allows. Delete one, or move to a plan with more folders.
          </Text>
          <PlanHint feature="More folders" />
        </Stack>
      )}
    </Paper>
  );
}

export function FoldersPage() {
  const queries = useQueryClient();
  const folders = useQuery({ queryKey: FOLDERS_KEY, queryFn: listFolders });
  const [editing, setEditing] = useState<Folder | null>(null);
  const [deleting, setDeleting] = useState<Folder | null>(null);
  const remove = useMutation({
    mutationFn: (folder: Folder) => deleteFolder(folder.id),
    onSuccess: (_answer, folder) => {
      setDeleting(null);
      void queries.invalidateQueries({ queryKey: FOLDERS_KEY });
      void queries.invalidateQueries({ queryKey: ['links'] });
      notifications.show({ color: 'teal', message: `Folder ${folder.name} deleted; its links are kept, in no folder` });
    },
  });
  const closeDelete = () => {
    remove.reset();
    setDeleting(null);
  };

  return (
    <>
      <PageTitle title="Folders" description={folders.data ? countText(folders.data) : 'Group links by campaign, client or anything else.'} />
      {folders.isPending ? (
        <Loading label="Loading folders…" />
      ) : folders.isError ? (
        <LoadError error={folders.error} title="Could not load your folders" onRetry={() => void folders.refetch()} />
      ) : (
        <Stack gap="lg">
          <CreateSection data={folders.data} />
          {folders.data.folders.length === 0 ? (
            <EmptyState title="No folders yet">Create one above, then choose it when you create or edit a link.</EmptyState>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" component="ul" p={0} m={0} aria-label="Your folders">
              {folders.data.folders.map((folder) => (
                <FolderItem key={folder.id} folder={folder} onEdit={() => setEditing(folder)} onDelete={() => setDeleting(folder)} />
              ))}
            </SimpleGrid>
          )}
        </Stack>
      )}
      {editing && (
        <Modal opened onClose={() => setEditing(null)} title={`Edit folder ${editing.name}`}>
          <FolderForm folder={editing} onDone={() => setEditing(null)} />
        </Modal>
      )}
      {deleting && (
        <ConfirmModal title={`Delete folder ${deleting.name}?`} confirmLabel="Delete" busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate(deleting)} onClose={closeDelete}>
          The folder goes; its {linkCount(deleting.linkCount)} {deleting.linkCount === 1 ? 'is' : 'are'} not deleted but left in no folder, still working.
        </ConfirmModal>
      )}
    </>
  );
}
