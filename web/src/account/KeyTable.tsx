import { Button, Code, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { Answer } from '../api';
import { formatDateTime } from '../components/ui';
import { timeAgo } from './relative-time';

/**
 * One key as GET /api/keys lists it. `name` and `lastUsedAt` are optional here until the client is regenerated
 * with them; older servers simply leave them out.
 */
export type Key = Answer<'/api/keys', 'get'>['keys'][number] & { name?: string | null; lastUsedAt?: string | null };

/**
 * The key made with the account (sign-up, `users create`) carries the account's own creation time and no name.
 * Its value was shown at most once, in a terminal; a browser sign-up never shows it.
 */
export const isAccountKey = (key: Key, accountCreatedAt: string | undefined): boolean => !key.name && key.createdAt === accountCreatedAt;

function LastUsed({ at }: { at: string | null | undefined }) {
  if (!at) return <>Never used</>;
  return (
    <>
      Last used{' '}
      <time dateTime={at} title={formatDateTime(at)}>
        {timeAgo(at)}
      </time>
    </>
  );
}

function KeyName({ apiKey, accountCreatedAt }: { apiKey: Key; accountCreatedAt: string | undefined }) {
  if (apiKey.name) return <Text fw={600} style={{ overflowWrap: 'anywhere' }}>{apiKey.name}</Text>;
  if (isAccountKey(apiKey, accountCreatedAt)) {
    return (
      <>
        <Text fw={600}>Made with your account</Text>
        <Text size="sm">Its full value is not shown in the dashboard.</Text>
      </>
    );
  }
  return (
    <Text fw={600} fs="italic">
      No name
    </Text>
  );
}

/** The account's working keys: name, first characters, when made and when last used, with Revoke. */
export function KeyTable({ keys, accountCreatedAt, onRevoke }: { keys: Key[]; accountCreatedAt: string | undefined; onRevoke: (key: Key) => void }) {
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={300}>
        <Table aria-label="Your API keys" verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Starts with</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td>
                  <Stack gap={2}>
                    <KeyName apiKey={key} accountCreatedAt={accountCreatedAt} />
                    <Text size="sm">Created {formatDateTime(key.createdAt)}</Text>
                    <Text size="sm">
                      <LastUsed at={key.lastUsedAt} />
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Code>{key.prefix}…</Code>
                </Table.Td>
                <Table.Td ta="right">
                  <Button size="xs" variant="subtle" color="red" onClick={() => onRevoke(key)} aria-label={`Revoke key ${key.prefix}`}>
                    Revoke
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
