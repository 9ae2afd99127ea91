import { Group, Paper, Table, Text, Title } from '@mantine/core';
import { formatDateTime } from '../components/ui';
import type { Profile } from '../profile';
import { planName } from '../plan';
import { useAccount } from '../session';
import { dollars, limitText } from './plan-format';

type Limits = Profile['limits'];

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function pastTheNumber(limits: Limits): string {
  if (limits.trackedClicksPerMonth === null) return 'Not applicable';
  return limits.overageCentsPer1000 === null ? 'Grace period, then recording pauses' : `${dollars(limits.overageCentsPer1000)} per 1,000`;
}

/** Each limit as a sentence a person reads, not the API's field names. */
function rows(limits: Limits): [string, string][] {
  return [
    ['API access with keys', yesNo(limits.apiAccess)],
    ['Custom slugs (namespace/slug)', yesNo(limits.customSlugs)],
    ['New links per day', limitText(limits.linksPerDay)],
    ['Tracked clicks per month', limitText(limits.trackedClicksPerMonth)],
    ['Statistics history', `${limits.historyDays} days`],
    ['API requests per hour', limitText(limits.requestsPerHour)],
    ['API requests per month', limitText(limits.requestsPerMonth)],
    ['Requests per minute', limitText(limits.requestsPerMinute)],
    ['Bulk requests per hour', limitText(limits.bulkRequestsPerHour)],
    ['Folders', limitText(limits.folders)],
    ['Webhooks', limitText(limits.webhooks)],
    ['Custom domains', limitText(limits.domains)],
    ['Clicks past the monthly number', pastTheNumber(limits)],
    ['Default overage cap', limits.overageCentsPer1000 === null ? 'Not applicable' : limits.overageCapCents ? `${dollars(limits.overageCapCents)} per month` : 'No cap'],
  ];
}

/** The account's plan and every limit it sets. */
export function PlanCard({ profile }: { profile: Profile }) {
  // The role comes with the session; the profile answers the limits, which for an operator are none.
  const { role } = useAccount();
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
        <Title order={2} size="h4">
          Plan
        </Title>
        <Text fw={600}>
          {planName({ tier: profile.tier, role })}
        </Text>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {profile.email}, member since {formatDateTime(profile.createdAt)}.{' '}
        {role === 'operator' ? 'Your account runs this Snip server: no plan limits apply to it.' : 'Plans are set by the person who runs this Snip server.'}
      </Text>
      <Table verticalSpacing={6} aria-label="Plan limits">
        <Table.Tbody>
          {rows(profile.limits).map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={400} c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {label}
              </Table.Th>
              <Table.Td ta="right" fw={500}>
                {value}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
