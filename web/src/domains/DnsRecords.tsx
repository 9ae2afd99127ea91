import { Badge, Code, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { CopyValue } from '../components/ui';
import type { DnsRecord } from './types';

function Field({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', minWidth: 0 }}>{value}</Code>
        <CopyValue value={value} label={copyLabel} />
      </Group>
    </Stack>
  );
}

/** What each record does, in the words of a DNS host's form. */
const PURPOSE: Record<string, string> = {
  TXT: 'Proves the domain is yours. Snip looks for it when you press Verify.',
  CNAME: 'Points the domain at this Snip server.',
  A: "Points the domain at this Snip server's IPv4 address. It is an A record because the server's address is an IP address, which a CNAME record cannot name.",
  AAAA: "Points the domain at this Snip server's IPv6 address. It is an AAAA record because the server's address is an IP address, which a CNAME record cannot name.",
};

/**
 * The records to create at the domain's DNS host, exactly as the API gave them (never rebuilt here, so the page
 * cannot drift from what the server checks). Cards instead of a table: long tokens stay readable at phone width.
 */
export function DnsRecords({ domain, records }: { domain: string; records: DnsRecord[] }) {
  if (records.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-label={`DNS records for ${domain}`}>
      {records.map((record) => (
        <Paper key={`${record.type} ${record.name}`} withBorder p="xs" radius="sm" bg="var(--mantine-color-default-hover)">
          <Group gap="sm" align="flex-start" wrap="nowrap">
            <Badge variant="outline" color="gray" style={{ flexShrink: 0 }}>
              {record.type}
            </Badge>
            <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm">
                {record.type} record. {PURPOSE[record.type] ?? ''}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                <Field label="Name" value={record.name} copyLabel={`Copy ${record.type} record name`} />
                <Field label="Value" value={record.value} copyLabel={`Copy ${record.type} record value`} />
              </SimpleGrid>
            </Stack>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
