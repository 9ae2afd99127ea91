import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconPlus } from '@tabler/icons-react';
import { useId, useState, type FormEvent } from 'react';
import { snip, type Answer } from '../api';
import { ErrorNotice } from '../components/ui';

type CreatedKey = Answer<'/api/keys', 'post'>;

const MAX_NAME = 100;

/** POST /api/keys with its optional `{ name }`; unnamed, an empty object, which servers before names ignore. */
const createKey = (name: string): Promise<CreatedKey> =>
  // TODO(lead): drop `as never` once `npm run client` knows POST /api/keys's body.
  snip.post('/api/keys', { body: (name ? { name } : {}) as never });

/** Names a new key (optional) and makes it; `onCreated` shows its value, once. */
export function CreateKeyForm({ onCreated, lead }: { onCreated: (key: CreatedKey, name: string | null) => void; lead?: string }) {
  const headingId = useId();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: (trimmed: string) => createKey(trimmed),
    onSuccess: (key, trimmed) => {
      setName('');
      onCreated(key, trimmed || null);
    },
  });
  const tooLong = name.trim().length > MAX_NAME;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!tooLong) create.mutate(name.trim());
  };
  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="md" radius="md">
      <Title id={headingId} order={2} size="h4" mb="xs">
        Create a key
      </Title>
      {lead && (
        <Text size="sm" mb="sm">
          {lead}
        </Text>
      )}
      <form onSubmit={submit} noValidate aria-label="Create an API key">
        <Stack gap="sm">
          <ErrorNotice error={create.error} title="No key was created" />
          <TextInput
            label="Name"
            description="Optional: what will use the key, such as a script, a server or an AI assistant."
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={tooLong ? `At most ${MAX_NAME} characters` : undefined}
            maw={340}
          />
          <Group>
            <Button type="submit" leftSection={<IconPlus size={16} aria-hidden />} loading={create.isPending}>
              Create API key
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
