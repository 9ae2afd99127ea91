import { ActionIcon, Code, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, formatDateTime, Loading, PageTitle } from '../components/ui';
import { UtmTemplateForm } from '../organize/UtmTemplateForm';
import { deleteTemplate, listTemplates, UTM_FIELDS, UTM_TEMPLATES_KEY, type UtmTemplate } from '../organize/utm-templates';
import { LoadError } from '../organize/LoadError';

function TemplateItem({ template, onEdit, onDelete }: { template: UtmTemplate; onEdit: () => void; onDelete: () => void }) {
  const set = UTM_FIELDS.filter(({ key }) => template[key]);
  return (
    <Paper withBorder p="sm" radius="md" component="li" style={{ listStyle: 'none' }}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {template.name}
          </Text>
          <Stack gap={2} component="dl" m={0}>
            {set.map(({ key, param }) => (
              <Group key={key} gap={6} wrap="nowrap" align="baseline">
                <Text component="dt" size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {param}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  <Code>{template[key]}</Code>
                </Text>
              </Group>
            ))}
          </Stack>
          <Text size="xs" c="dimmed">
            Created {formatDateTime(template.createdAt)}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          <ActionIcon variant="subtle" size="lg" aria-label={`Edit template ${template.name}`} onClick={onEdit}>
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
          <ActionIcon variant="subtle" size="lg" color="red" aria-label={`Delete template ${template.name}`} onClick={onDelete}>
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Group>
      </Group>
    </Paper>
  );
}

export function UtmTemplatesPage() {
  const queries = useQueryClient();
  const templates = useQuery({ queryKey: UTM_TEMPLATES_KEY, queryFn: listTemplates });
  const [editing, setEditing] = useState<UtmTemplate | null>(null);
  const [deleting, setDeleting] = useState<UtmTemplate | null>(null);
  const remove = useMutation({
    mutationFn: (template: UtmTemplate) => deleteTemplate(template.id),
    onSuccess: (_answer, template) => {
      setDeleting(null);
      void queries.invalidateQueries({ queryKey: UTM_TEMPLATES_KEY });
      notifications.show({ color: 'teal', message: `Template ${template.name} deleted` });
    },
  });
  const closeDelete = () => {
    remove.reset();
    setDeleting(null);
  };

  return (
    <>
      <PageTitle
        title="UTM templates"
        description="A template adds its utm_ parameters to the destination of each link you create with it (Links → More options → UTM template)."
      />
      <Stack gap="lg">
        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            New template
          </Title>
          <UtmTemplateForm />
        </Paper>
        {templates.isPending ? (
          <Loading label="Loading templates…" />
        ) : templates.isError ? (
          <LoadError error={templates.error} title="Could not load your templates" onRetry={() => void templates.refetch()} />
        ) : templates.data.templates.length === 0 ? (
          <EmptyState title="No templates yet">Create one above, then pick it when you create a link.</EmptyState>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" component="ul" p={0} m={0} aria-label="Your UTM templates">
            {templates.data.templates.map((template) => (
              <TemplateItem key={template.id} template={template} onEdit={() => setEditing(template)} onDelete={() => setDeleting(template)} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      {editing && (
        <Modal opened onClose={() => setEditing(null)} title={`Edit template ${editing.name}`} size="lg">
          <UtmTemplateForm template={editing} onDone={() => setEditing(null)} />
        </Modal>
      )}
      {deleting && (
        <ConfirmModal title={`Delete template ${deleting.name}?`} confirmLabel="Delete" busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate(deleting)} onClose={closeDelete}>
          New links can no longer use it. Links already made with it keep their destinations and parameters.
        </ConfirmModal>
      )}
    </>
  );
}
