import { Badge, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { PasswordChange } from './draft';

/** Sets, changes or removes a link's password. The API never returns one, so none is ever shown: only whether one is set. */
export function PasswordEditor({ isProtected, change, onChange }: { isProtected: boolean; change: PasswordChange; onChange: (change: PasswordChange) => void }) {
  if (change.kind === 'remove') {
    return (
      <Group gap="sm" wrap="wrap">
        <Text size="sm">The password will be removed when you save.</Text>
        <Button size="xs" variant="default" onClick={() => onChange({ kind: 'keep' })}>
          Keep the password
        </Button>
      </Group>
    );
  }
  return (
    <Stack gap="xs">
      {isProtected ? (
        <Group gap="sm" wrap="wrap">
          <Badge color="grape" variant="light" leftSection={<IconLock size={12} aria-hidden />}>
            Password protected
          </Badge>
          <Button size="xs" variant="subtle" color="red" onClick={() => onChange({ kind: 'remove' })}>
            Remove password
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          No password: visitors are redirected straight away.
        </Text>
      )}
      <PasswordInput
        label={isProtected ? 'New password' : 'Password'}
        description={isProtected ? 'Leave empty to keep the current one' : 'At least 4 characters; visitors enter it before they are redirected'}
        // Not the account's password: the browser must not fill it in, nor offer to save it as one.
        autoComplete="new-password"
        value={change.kind === 'set' ? change.value : ''}
        onChange={(e) => onChange(e.currentTarget.value === '' ? { kind: 'keep' } : { kind: 'set', value: e.currentTarget.value })}
        maw={360}
      />
    </Stack>
  );
}
