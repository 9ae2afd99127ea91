import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { adminMessage } from './messages';

/** A refusal or failure of the admin API, in words, announced to screen readers. */
export function AdminError({ error, title = 'That did not work' }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <Alert color="red" title={title} role="alert" icon={<IconInfoCircle aria-hidden />}>
      {adminMessage(error)}
    </Alert>
  );
}
