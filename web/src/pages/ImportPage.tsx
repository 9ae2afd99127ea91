import { Anchor, Badge, Button, FileInput, Group, Paper, Progress, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconUpload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { messageOf, snip } from '../api';
import { CopyValue, ErrorNotice, PageTitle, TierGate } from '../components/ui';
import { readImportCsv, SAMPLE_CSV, type ImportResult, type ImportRow } from '../links/csv-import';

/** Items per request: small enough for a progress bar that moves, far under the API's 1,000. */
const CHUNK = 100;

function Importer() {
  const queries = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState<ImportRow[] | null>(null);
  const [readError, setReadError] = useState<unknown>(null);
  const [done, setDone] = useState(0);
  const [running, setRunning] = useState(false);
  const [results, setResults] = useState<ImportResult[]>([]);
  const [stopped, setStopped] = useState<unknown>(null);
  const sample = useMemo(() => `data:text/csv;charset=utf-8,${encodeURIComponent(SAMPLE_CSV)}`, []);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setRows(null);
    setResults([]);
    setReadError(null);
    setStopped(null);
    setDone(0);
    if (!chosen) return;
    try {
      setRows(await readImportCsv(chosen));
    } catch (error) {
      setReadError(error);
    }
  };

  const run = async () => {
    if (!rows) return;
    setRunning(true);
    setResults([]);
    setStopped(null);
    setDone(0);
    const collected: ImportResult[] = [];
    try {
      for (let start = 0; start < rows.length; start += CHUNK) {
        const chunk = rows.slice(start, start + CHUNK);
        const answer = await snip.post('/api/bulk', { body: { urls: chunk } });
        for (const r of answer.results) collected.push({ row: start + r.index + 2, url: r.url, shortUrl: r.shortUrl, error: r.error, code: r.code });
        setResults([...collected]);
        setDone(start + chunk.length);
      }
    } catch (error) {
      // A refused request (a rate limit, a bad row shape) stops the import where it is: the rows above are done.
      setStopped(error);
    } finally {
      setRunning(false);
      void queries.invalidateQueries({ queryKey: ['links'] });
    }
  };

  const total = rows?.length ?? 0;
  const created = results.filter((r) => r.shortUrl).length;
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <FileInput label="CSV file" description="A header row with a url column; customSlug (or fullPath), expiresAt, maxClicks, activeFrom and blockedCountries are optional, as in a Snip export" accept=".csv,text/csv" clearable value={file} onChange={choose} leftSection={<IconUpload size={16} aria-hidden />} />
          <Anchor href={sample} download="snip-import-sample.csv" size="sm">
            Download a sample CSV
          </Anchor>
          <ErrorNotice error={readError} title="The file could not be read" />
          {rows && (
            <Group justify="space-between" wrap="wrap">
              <Text size="sm">{total} {total === 1 ? 'row' : 'rows'} ready to import</Text>
              <Button onClick={run} loading={running} disabled={total === 0}>
                Import {total} {total === 1 ? 'link' : 'links'}
              </Button>
            </Group>
          )}
          {(running || done > 0) && (
            <Stack gap={4}>
              <Progress value={total ? (done / total) * 100 : 0} aria-label="Import progress" animated={running} />
              <Text size="xs" c="dimmed" role="status">
                {done} of {total} rows sent · {created} created · {results.length - created} failed
              </Text>
            </Stack>
          )}
          {stopped ? <ErrorNotice error={stopped} title={`The import stopped after ${done} rows: ${messageOf(stopped)}`} /> : null}
        </Stack>
      </Paper>
      {results.length > 0 && (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={560} maxHeight={500}>
            <Table striped stickyHeader aria-label="Import results">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Destination</Table.Th>
                  <Table.Th>Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.map((r) => (
                  <Table.Tr key={r.row}>
                    <Table.Td>{r.row}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.url}</Table.Td>
                    <Table.Td>
                      {r.shortUrl ? (
                        <Group gap={2} wrap="nowrap">
                          <Text size="sm">{r.shortUrl}</Text>
                          <CopyValue value={r.shortUrl} label={`Copy short URL of row ${r.row}`} />
                        </Group>
                      ) : (
                        <Group gap={4}>
                          <Badge color="red" variant="light">{r.code ?? 'FAILED'}</Badge>
                          <Text size="sm">{r.error}</Text>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </Stack>
  );
}

export function ImportPage() {
  return (
    <>
      <PageTitle title="Bulk import" description="Create many links at once from a CSV file; each row succeeds or fails on its own." />
      <TierGate tier="pro" feature="Bulk import">
        <Importer />
      </TierGate>
    </>
  );
}
