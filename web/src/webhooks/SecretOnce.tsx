import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CopyTextButton } from '../components/ui';

/**
 * The signing secret right after creation: the only time the API sends it. A click outside does not close the
 * dialog, so the secret cannot be lost by a stray tap; Escape and Done still do.
 */
export function SecretOnce({ secret, url, onClose }: { secret: string; url: string; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title="Webhook created" closeOnClickOutside={false}>
      <Stack gap="sm">
        <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title="Copy the signing secret now">
          It is shown only once. Without it you cannot check that deliveries to {url} come from Snip.
        </Alert>
        <Text size="sm" fw={600} id="webhook-secret-label">
          Signing secret
        </Text>
        <Code block aria-labelledby="webhook-secret-label" data-testid="webhook-secret" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {secret}
        </Code>
        <Text size="sm">
          Every delivery carries the lowercase hex HMAC-SHA256 of its raw body, keyed by this secret, in the <Code>X-Snip-Signature</Code> header. Verify it over the raw bytes, not
          over re-serialized JSON.
        </Text>
        <Group justify="space-between" wrap="wrap">
          <CopyTextButton value={secret} label="Copy secret" />
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
