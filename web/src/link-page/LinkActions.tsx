import { Alert, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconBan, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { snip } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { deleteLink, type Link } from '../links/api';
import { EditLinkModal } from '../links/EditLinkModal';

/** The operator's word on a disabled link; the owner cannot enable it again, so there is nothing to press. */
export function DisabledNotice({ reason }: { reason: string }) {
  return (
    <Alert color="red" icon={<IconBan aria-hidden />} mb="md">
      <Text size="sm" fw={600}>
        Disabled by the operator: {reason}
      </Text>
      <Text size="sm">Visitors get a page saying the link was disabled. Only the server's operator can enable it again.</Text>
    </Alert>
  );
}

/**
 * Edit and Delete on the link's own page: the list's edit dialog, and a confirmation before the delete, after which
 * the page goes back to the list (the link's page would be a 404). A disabled link can be neither edited nor deleted.
 */
export function LinkActions({ link, disabled }: { link: Link; disabled: boolean }) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const folders = useQuery({ queryKey: ['folders'], queryFn: () => snip.get('/api/folders'), enabled: editing });
  const remove = useMutation({
    mutationFn: () => deleteLink(link),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: 'Link deleted' });
      void queries.invalidateQueries({ queryKey: ['links'] });
      navigate('/links', { replace: true });
      queries.removeQueries({ queryKey: ['link', link.fullPath ?? link.shortCode] });
    },
  });

  return (
    <>
      <Group gap="xs">
        {!disabled && (
          <Button variant="default" size="sm" leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setEditing(true)}>
            Edit
          </Button>
        )}
        {!disabled && (
          <Button variant="outline" color="red" size="sm" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)}>
            Delete
          </Button>
        )}
      </Group>
      {editing && <EditLinkModal link={link} folders={folders.data?.folders ?? []} onClose={() => setEditing(false)} />}
      {deleting && (
        <ConfirmModal
          title="Delete this link?"
          confirmLabel="Delete link"
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate()}
          onClose={() => {
            remove.reset();
            setDeleting(false);
          }}
        >
          {link.url} will stop redirecting, and its statistics go with it. This cannot be undone.
        </ConfirmModal>
      )}
    </>
  );
}
