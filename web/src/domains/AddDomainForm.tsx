import { Button, Group, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip, type ApiErrorCode } from '../api';
import { ErrorNotice, isFormError } from '../components/ui';
import { fieldMessage } from '../errors';
import { DOMAINS_KEY, type AddAnswer } from './types';

const FIELD_CODES: ApiErrorCode[] = ['MISSING_DOMAIN', 'INVALID_DOMAIN', 'RESERVED_DOMAIN', 'DOMAIN_EXISTS', 'DOMAIN_TAKEN'];

/** Adds a hostname; the answer's DNS records are handed up, as the page shows them under the new domain. */
export function AddDomainForm({ disabled, onAdded }: { disabled: boolean; onAdded: (answer: AddAnswer) => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const add = useMutation({
    mutationFn: (domain: string) => snip.post('/api/user/domains', { body: { domain } }),
    onSuccess: (answer) => {
      onAdded(answer);
      void queries.invalidateQueries({ queryKey: DOMAINS_KEY });
      // No title: under one, Mantine dims the message below 4.5:1.
      notifications.show({ color: 'teal', message: `${answer.domain} added: create its DNS records, then press Verify.` });
      setName('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name.trim().toLowerCase());
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {isFormError(add.error, FIELD_CODES) && <ErrorNotice error={add.error} title="The domain was not added" />}
        <Group align="flex-start" wrap="wrap" gap="sm">
          <TextInput
            label="Domain"
            description="A hostname you control, such as links.example.com"
            placeholder="links.example.com"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldMessage(add.error, FIELD_CODES)}
            disabled={disabled}
            style={{ flex: '1 1 14rem' }}
          />
          <Button type="submit" loading={add.isPending} disabled={disabled} mt={{ base: 0, xs: 44 }}>
            Add domain
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
