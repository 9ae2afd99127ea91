import { Button, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { CopyTextButton, formatDateTime } from '../components/ui';
import { AdminError } from './AdminError';
import type { AdminAccount, PasswordReset } from './types';

/** Disabling asks for a reason, kept in the audit log and shown on the account; none is needed. */
export function DisableAccountModal({
  account,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  account: AdminAccount;
  busy: boolean;
  error: unknown;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm(reason.trim());
  };
  return (
    <Modal opened onClose={onClose} title={`Disable ${account.email}?`} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit}>
        <Stack gap="md">
          <Text size="sm">
            Its sessions, API keys and connected apps stop working at once, and it cannot sign in. Its links keep redirecting. You can enable it again later.
          </Text>
          <TextInput label="Reason (optional)" description="Kept in the audit log and shown on the account" maxLength={500} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          <AdminError error={error} title="The account was not disabled" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={busy}>
              Disable account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The one-time reset link: Snip sends no email, so the operator passes it on. */
export function PasswordResetModal({ email, reset, onClose }: { email: string; reset: PasswordReset; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={`Password reset link for ${email}`} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="md">
        <Text size="sm">
          Pass this link on to {email} yourself (Snip sends no email). It works once, until {formatDateTime(reset.expiresAt)}; whoever opens it sets a new password
          and signs in, and the account's other sessions end.
        </Text>
        <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {reset.url}
        </Code>
        <Group justify="space-between">
          <CopyTextButton value={reset.url} label="Copy reset link" />
          <Button onClick={onClose} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
