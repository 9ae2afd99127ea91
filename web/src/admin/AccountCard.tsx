import { Badge, Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { IconShieldMinus, IconShieldPlus } from '@tabler/icons-react';
import { formatDateTime } from '../components/ui';
import { count, isTier, PLAN_OPTIONS } from './plans';
import type { AdminAccount, Tier } from './types';

export interface AccountActions {
  setPlan: (account: AdminAccount, tier: Tier) => void;
  disable: (account: AdminAccount) => void;
  enable: (account: AdminAccount) => void;
  resetPassword: (account: AdminAccount) => void;
  setRole: (account: AdminAccount, role: AdminAccount['role']) => void;
  delete: (account: AdminAccount) => void;
}

/**
 * One account: its plan as a control, its facts as text, every action a button named with the account's email (a
 * list of them stays unambiguous to screen readers). A card rather than a table row, so nothing scrolls sideways
 * at 390 px. An operator's own account offers no action that would lock them out.
 */
export function AccountCard({ account, self, busy, actions }: { account: AdminAccount; self: boolean; busy: boolean; actions: AccountActions }) {
  const { email } = account;
  const disabled = account.disabledAt !== null;
  return (
    <Paper component="li" withBorder p="sm" radius="md" style={{ listStyle: 'none' }}>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {email}
          </Text>
          {self && (
            <Badge variant="outline" color="dark">
              You
            </Badge>
          )}
          {account.role === 'operator' && (
            <Badge variant="filled" color="indigo.9">
              Operator
            </Badge>
          )}
          <Badge variant="filled" color={disabled ? 'red.9' : 'teal.9'}>
            {disabled ? 'Disabled' : 'Active'}
          </Badge>
        </Group>
        <Text size="sm">
          {count(account.linkCount, 'link')} · created {formatDateTime(account.createdAt)}
          {account.namespace && <> · namespace {account.namespace}</>}
        </Text>
        {disabled && (
          <Text size="sm">
            Disabled {formatDateTime(account.disabledAt)}
            {account.disabledReason ? `: ${account.disabledReason}` : ' (no reason given)'}
          </Text>
        )}
        <Group gap="xs" wrap="wrap" align="flex-end">
          <Select
            label="Plan"
            aria-label={`Plan for ${email}`}
            data={PLAN_OPTIONS}
            value={account.tier}
            allowDeselect={false}
            disabled={busy}
            w={150}
            size="xs"
            onChange={(value) => {
              if (isTier(value) && value !== account.tier) actions.setPlan(account, value);
            }}
          />
          {!self &&
            (disabled ? (
              <Button size="xs" variant="default" aria-label={`Enable ${email}`} onClick={() => actions.enable(account)} disabled={busy}>
                Enable
              </Button>
            ) : (
              <Button size="xs" variant="default" aria-label={`Disable ${email}`} onClick={() => actions.disable(account)} disabled={busy}>
                Disable
              </Button>
            ))}
          {/* A disabled account cannot sign in: its reset link would be used up for nothing (the server refuses it). */}
          {!disabled && (
            <Button size="xs" variant="default" aria-label={`Reset password for ${email}`} onClick={() => actions.resetPassword(account)} disabled={busy}>
              Reset password
            </Button>
          )}
          {!self &&
            (account.role === 'operator' ? (
              <Button size="xs" variant="default" leftSection={<IconShieldMinus size={14} aria-hidden />} aria-label={`Remove operator ${email}`} onClick={() => actions.setRole(account, 'member')} disabled={busy}>
                Remove operator
              </Button>
            ) : (
              // The visible words must be a run of the name's words (WCAG 2.5.3, label in name): "Make operator" is not.
              <Button size="xs" variant="default" leftSection={<IconShieldPlus size={14} aria-hidden />} aria-label={`Make ${email} an operator`} onClick={() => actions.setRole(account, 'operator')} disabled={busy}>
                Operator
              </Button>
            ))}
          {!self && (
            <Button size="xs" variant="default" aria-label={`Delete ${email}`} onClick={() => actions.delete(account)} disabled={busy}>
              Delete
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
