import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CopyTextButton } from '../components/ui';

/**
 * The new key, shown this once: Snip keeps only its hash. A click outside does not close the dialog, so the key
 * is not lost by accident; Done or Escape do.
 */
export function NewKeyModal({ apiKey, name, onClose }: { apiKey: string; name?: string | null; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={name ? `Your new API key "${name}"` : 'Your new API key'} closeOnClickOutside={false} size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="sm">
        <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title="This key will not be shown again">
          Copy it now and keep it somewhere safe. Snip stores only a hash of it: if you lose it, revoke it and create another.
        </Alert>
        <Code block data-testid="new-api-key" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {apiKey}
        </Code>
        <Text size="sm">
          Send it as <Code>Authorization: Bearer {'<key>'}</Code>.
        </Text>
        <Group justify="space-between" wrap="wrap">
          <CopyTextButton value={apiKey} label="Copy key" />
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
