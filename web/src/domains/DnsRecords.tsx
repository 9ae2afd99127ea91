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
            <Badge variant="outline" color="gray" mt={18} style={{ flexShrink: 0 }}>
              {record.type}
            </Badge>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" style={{ flex: 1, minWidth: 0 }}>
              <Field label="Name" value={record.name} copyLabel={`Copy ${record.type} record name`} />
              <Field label="Value" value={record.value} copyLabel={`Copy ${record.type} record value`} />
            </SimpleGrid>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
