import { Alert, Button, Code, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ApiErrorCode } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import { createTemplate, queryOf, replaceTemplate, TemplateRemoved, UTM_FIELDS, UTM_TEMPLATES_KEY, type TemplateInput, type UtmField, type UtmTemplate } from './utm-templates';

const NAME_CODES: ApiErrorCode[] = ['MISSING_NAME', 'INVALID_NAME', 'TEMPLATE_EXISTS'];
const FIELD_CODES = [...NAME_CODES, ...UTM_FIELDS.map((f) => f.code)];

type Values = Record<UtmField, string>;
const valuesOf = (template?: UtmTemplate): Values =>
  Object.fromEntries(UTM_FIELDS.map(({ key }) => [key, template?.[key] ?? ''])) as Values;

/** Creates a template, or (given `template`) saves changed values in its place. */
export function UtmTemplateForm({ template, onDone }: { template?: UtmTemplate; onDone?: () => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState(template?.name ?? '');
  const [values, setValues] = useState<Values>(() => valuesOf(template));
  // The API refuses a template without any utm value (MISSING_UTM_FIELDS); saying so before sending also spares
  // an edit the delete-and-put-back round trip.
  const [noValues, setNoValues] = useState(false);
  const [removed, setRemoved] = useState(false);

  const save = useMutation({
    // Once an edit has deleted the old template without saving the new one, saving again creates it.
    mutationFn: (input: TemplateInput) => (template && !removed ? replaceTemplate(template, input) : createTemplate(input)),
    onError: (error) => {
      if (error instanceof TemplateRemoved) setRemoved(true);
    },
    onSuccess: (saved) => {
      notifications.show({ color: 'teal', message: template ? `Template ${saved.name} saved` : `Template ${saved.name} created` });
      if (!template) {
        setName('');
        setValues(valuesOf());
      }
      onDone?.();
    },
    // Also after a refusal: an edit may have replaced or put back the template under a new id.
    onSettled: () => void queries.invalidateQueries({ queryKey: UTM_TEMPLATES_KEY }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { name: name.trim() } as TemplateInput;
    for (const { key } of UTM_FIELDS) input[key] = values[key].trim() || null;
    const empty = UTM_FIELDS.every(({ key }) => input[key] === null);
    setNoValues(empty);
    if (!empty) save.mutate(input);
  };
  const preview = queryOf(values);

  return (
    <form onSubmit={submit} noValidate aria-label={template ? `Edit template ${template.name}` : 'New UTM template'}>
      <Stack gap="sm">
        {noValues && (
          <Alert color="red" role="alert" title="Nothing to add">
            Fill in at least one utm_ value: a template without any would add nothing to a link.
          </Alert>
        )}
        {!noValues && isFormError(save.error, FIELD_CODES) && <ErrorNotice error={save.error} title="The template was not saved" />}
        <TextInput
          label="Template name"
          description="Up to 50 characters, unique in your account"
          required
          maxLength={50}
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            if (save.error) save.reset();
          }}
          error={fieldError(save.error, NAME_CODES)}
          maw={340}
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: template ? 2 : 3 }} spacing="sm">
          {UTM_FIELDS.map(({ key, label, hint, code }) => (
            <TextInput
              key={key}
              label={label}
              description={hint}
              maxLength={200}
              value={values[key]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setValues((current) => ({ ...current, [key]: value }));
              }}
              error={fieldError(save.error, [code])}
            />
          ))}
        </SimpleGrid>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          Adds: {preview ? <Code>?{preview}</Code> : 'nothing yet'}
        </Text>
        {template && (
          <Text size="xs" c="dimmed">
            Links already made with this template keep the parameters they were given.
          </Text>
        )}
        <Group justify={template ? 'flex-end' : 'flex-start'}>
          {template && onDone && (
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={save.isPending}>
            {template ? 'Save template' : 'Create template'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
