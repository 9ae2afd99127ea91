import { Button, Group, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import { useSession, type SessionAccount } from '../session';

const toggle = { 'aria-label': 'Show or hide the characters' };

/** Changing the password signs every other browser out; this one gets a new session. */
export function PasswordForm() {
  const session = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => api<{ account: SessionAccount; csrfToken: string }>('/api/auth/password', { method: 'POST', body: { currentPassword: current, newPassword: next } }),
    onSuccess: (answer) => {
      session.adopt(answer);
      setCurrent('');
      setNext('');
      notifications.show({ color: 'teal', message: 'Password changed; other browsers are signed out' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Password
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm" maw={420}>
          {isFormError(change.error, ['WRONG_PASSWORD', 'INVALID_PASSWORD']) && <ErrorNotice error={change.error} title="Not changed" />}
          <PasswordInput label="Current password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.currentTarget.value)} error={fieldError(change.error, ['WRONG_PASSWORD'])} visibilityToggleButtonProps={toggle} />
          <PasswordInput label="New password" description="At least 8 characters" autoComplete="new-password" value={next} onChange={(e) => setNext(e.currentTarget.value)} error={fieldError(change.error, ['INVALID_PASSWORD'])} visibilityToggleButtonProps={toggle} />
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
