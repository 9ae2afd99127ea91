import { Button, Code, Group, Paper, Radio, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { CopyTextButton, formatDateTime, Loading } from '../components/ui';
import { AdminError } from './AdminError';
import { adminApi, adminKeys } from './api';
import { isTier, PLAN_OPTIONS, planLabel } from './plans';
import type { Invite, SignUpMode, SignUpSettings } from './types';

const MODES: { value: SignUpMode; label: string; description: string }[] = [
  { value: 'open', label: 'Open', description: 'Anyone who can reach this server can create an account.' },
  { value: 'invite', label: 'Invite only', description: 'Only people with an invite link you made can create an account.' },
  { value: 'closed', label: 'Closed', description: 'Nobody can sign up; accounts are made with the command line.' },
];
const isMode = (value: string): value is SignUpMode => MODES.some((m) => m.value === value);

/** Who may create an account, with which plan; saved together with one button, so a half-made choice is never live. */
function SignUpForm({ saved }: { saved: SignUpSettings }) {
  const queries = useQueryClient();
  const [draft, setDraft] = useState<SignUpSettings>(saved);
  useEffect(() => setDraft(saved), [saved]);
  const save = useMutation({
    mutationFn: (settings: SignUpSettings) => adminApi.setSignUps(settings),
    onSuccess: (settings) => {
      queries.setQueryData(adminKeys.signUps, settings);
      void queries.invalidateQueries({ queryKey: adminKeys.audit });
      notifications.show({ color: 'teal', message: `Sign-ups saved: ${MODES.find((m) => m.value === settings.mode)!.label}, new accounts on ${planLabel(settings.tier)}` });
    },
  });
  const unchanged = draft.mode === saved.mode && draft.tier === saved.tier;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(draft);
      }}
    >
      <Stack gap="sm">
        <Radio.Group label="Sign-ups" value={draft.mode} onChange={(mode) => isMode(mode) && setDraft({ ...draft, mode })}>
          <Stack gap="xs" mt="xs">
            {MODES.map((mode) => (
              // The theme's dimmed colour is too faint for small text; descriptions here are read, not decoration.
              <Radio key={mode.value} value={mode.value} label={mode.label} description={mode.description} styles={{ description: { color: 'var(--mantine-color-text)' } }} />
            ))}
          </Stack>
        </Radio.Group>
        <Select
          label="Plan for new accounts"
          data={PLAN_OPTIONS}
          value={draft.tier}
          allowDeselect={false}
          maw={260}
          onChange={(tier) => isTier(tier) && setDraft({ ...draft, tier })}
        />
        <AdminError error={save.error} title="Sign-ups were not saved" />
        <Group>
          <Button type="submit" loading={save.isPending} disabled={unchanged}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A one-time invite link, shown once it is made, for the operator to pass on. */
function InviteLinks() {
  const queries = useQueryClient();
  const [invite, setInvite] = useState<Invite | null>(null);
  const create = useMutation({
    mutationFn: () => adminApi.createInvite(),
    onSuccess: (made) => {
      setInvite(made);
      void queries.invalidateQueries({ queryKey: adminKeys.audit });
    },
  });
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Invite links
      </Title>
      <Text size="sm">Each link creates one account, within 7 days. Pass it only to the person you invite: Snip sends no email.</Text>
      <Group>
        <Button variant="default" onClick={() => create.mutate()} loading={create.isPending}>
          Create invite link
        </Button>
      </Group>
      <AdminError error={create.error} title="No invite link was made" />
      {invite && (
        <Paper withBorder p="sm" radius="md" role="status">
          <Stack gap="xs">
            <Text size="sm">
              New invite link, for a {planLabel(invite.tier)} account, usable once until {formatDateTime(invite.expiresAt)}:
            </Text>
            <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {invite.url}
            </Code>
            <Group>
              <CopyTextButton value={invite.url} label="Copy invite link" />
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

export function SignUpsSection() {
  const settings = useQuery({ queryKey: adminKeys.signUps, queryFn: adminApi.signUps });
  if (settings.isPending) return <Loading label="Loading sign-up settings…" />;
  if (settings.isError) return <AdminError error={settings.error} title="Could not load the sign-up settings" />;
  return (
    <Stack gap="lg">
      <SignUpForm saved={settings.data} />
      <InviteLinks />
    </Stack>
  );
}
