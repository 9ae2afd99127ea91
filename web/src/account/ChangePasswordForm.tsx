import { Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip, type ApiErrorCode } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import { useSession } from '../session';

const CURRENT_CODES: ApiErrorCode[] = ['WRONG_PASSWORD'];
const NEW_CODES: ApiErrorCode[] = ['INVALID_PASSWORD'];
// Mantine names the eye button "Toggle password visibility": a name without "password" keeps label lookups unique.
const toggle = { 'aria-label': 'Show or hide the characters' };

/** A new password ends every other session; the API answers with this browser's new session, which we adopt. */
export function ChangePasswordForm() {
  const session = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => snip.post('/api/auth/password', { body: { currentPassword: current, newPassword: next } }),
    onSuccess: (answer) => {
      session.adopt(answer);
      setCurrent('');
      setNext('');
      notifications.show({ color: 'teal', message: 'Password changed. Other browsers and devices are signed out.' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="xs">
        Change password
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Every other signed-in browser is signed out; API keys keep working.
      </Text>
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Stack gap="sm" maw={340}>
          {isFormError(change.error, [...CURRENT_CODES, ...NEW_CODES]) && <ErrorNotice error={change.error} title="The password was not changed" />}
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={fieldError(change.error, CURRENT_CODES)}
            visibilityToggleButtonProps={toggle}
          />
          <PasswordInput
            label="New password"
            description="At least 8 characters"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={fieldError(change.error, NEW_CODES)}
            visibilityToggleButtonProps={toggle}
          />
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
