import { Button, Group, Stack } from '@mantine/core';
import { ErrorNotice } from '../components/ui';

/** A list that did not load, with a way to ask again (a 429 or a dropped connection passes). */
export function LoadError({ error, title, onRetry }: { error: unknown; title: string; onRetry: () => void }) {
  return (
    <Stack gap="xs">
      <ErrorNotice error={error} title={title} />
      <Group>
        <Button variant="default" size="xs" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    </Stack>
  );
}
