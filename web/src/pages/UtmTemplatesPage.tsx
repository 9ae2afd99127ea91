import { ActionIcon, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, fieldError, isFormError, Loading, PageTitle } from '../components/ui';

interface Template {
  id: string;
  name: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
}

const PARTS = [
  ['utmSource', 'Source (utm_source)'],
  ['utmMedium', 'Medium (utm_medium)'],
  ['utmCampaign', 'Campaign (utm_campaign)'],
  ['utmTerm', 'Term (utm_term)'],
  ['utmContent', 'Content (utm_content)'],
] as const;
type Part = (typeof PARTS)[number][0];
const NAME_CODES = ['MISSING_NAME', 'INVALID_NAME', 'TEMPLATE_EXISTS', 'UTM_TEMPLATE_EXISTS'];

/** Templates are created and deleted; the API has no change (a link keeps the parameters it was made with). */
function TemplateForm({ template, onDone }: { template?: Template; onDone: () => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState(template?.name ?? '');
  const [parts, setParts] = useState<Record<Part, string>>(() => Object.fromEntries(PARTS.map(([key]) => [key, template?.[key] ?? ''])) as Record<Part, string>);
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = { name: name.trim() };
      for (const [key] of PARTS) body[key] = parts[key].trim() || (template ? null : undefined);
      return template ? api(`/api/utm-templates/${encodeURIComponent(template.id)}`, { method: 'PATCH', body }) : api('/api/utm-templates', { method: 'POST', body });
    },
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['utm-templates'] });
      notifications.show({ color: 'teal', message: template ? 'Template saved' : 'Template created' });
      if (!template) {
        setName('');
        setParts(Object.fromEntries(PARTS.map(([key]) => [key, ''])) as Record<Part, string>);
      }
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {isFormError(save.error, NAME_CODES) && <ErrorNotice error={save.error} title="Not saved" />}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          <TextInput label="Template name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldError(save.error, NAME_CODES)} />
          {PARTS.map(([key, label]) => (
            <TextInput key={key} label={label} value={parts[key]} onChange={(e) => setParts({ ...parts, [key]: e.currentTarget.value })} />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {template ? 'Save template' : 'Create template'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function UtmTemplatesPage() {
  const queries = useQueryClient();
  const templates = useQuery({ queryKey: ['utm-templates'], queryFn: () => api<{ templates: Template[] }>('/api/utm-templates') });
  const [deleting, setDeleting] = useState<Template | null>(null);
  const remove = useMutation({
    mutationFn: (t: Template) => api(`/api/utm-templates/${encodeURIComponent(t.id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['utm-templates'] });
      setDeleting(null);
    },
  });
  return (
    <>
      <PageTitle title="UTM templates" description="A template adds its utm_ parameters to the destination of each link created with it." />
      <Paper withBorder p="md" radius="md" mb="lg">
        <TemplateForm onDone={() => undefined} />
      </Paper>
      {templates.isPending ? (
        <Loading label="Loading templates…" />
      ) : templates.isError ? (
        <ErrorNotice error={templates.error} title="Could not load your templates" />
      ) : templates.data.templates.length === 0 ? (
        <EmptyState title="No templates yet">Create one above, then pick it under More options when you create a link.</EmptyState>
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={560}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Parameters</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {templates.data.templates.map((t) => (
                  <Table.Tr key={t.id}>
                    <Table.Td fw={600}>{t.name}</Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {PARTS.filter(([key]) => t[key]).map(([key]) => `utm_${key.slice(3).toLowerCase()}=${t[key]}`).join('&') || '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={2} wrap="nowrap">
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete template ${t.name}`} onClick={() => setDeleting(t)}>
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {deleting && (
        <ConfirmModal title={`Delete ${deleting.name}?`} confirmLabel="Delete template" busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate(deleting)} onClose={() => setDeleting(null)}>
          Links already created with it keep their parameters.
        </ConfirmModal>
      )}
    </>
  );
}
