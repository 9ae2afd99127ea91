import { Code, Group, Stack, Table, Text } from '@mantine/core';
import { CopyValue } from '../components/ui';

export interface DnsRecord {
  type: string;
  name: string;
  value: string;
}

/** The records to create at the domain's DNS host, exactly as the API gave them, each value one click to copy. */
export function DnsRecords({ records }: { records: DnsRecord[] }) {
  return (
    <Stack gap={4}>
      <Text size="sm">Create these records at your DNS provider, then press Verify:</Text>
      <Table.ScrollContainer minWidth={480}>
        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Type</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {records.map((r) => (
              <Table.Tr key={`${r.type}-${r.name}`}>
                <Table.Td>{r.type}</Table.Td>
                <Table.Td>
                  <Group gap={2} wrap="nowrap">
                    <Code>{r.name}</Code>
                    <CopyValue value={r.name} label={`Copy ${r.type} record name`} />
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={2} wrap="nowrap">
                    <Code style={{ overflowWrap: 'anywhere' }}>{r.value}</Code>
                    <CopyValue value={r.value} label={`Copy ${r.type} record value`} />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
