import { Anchor, Button, FileInput, Group, Paper, Progress, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconAlertTriangle, IconCircleCheck, IconUpload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ApiError, snip } from '../api';
import { CopyValue, ErrorNotice, PageTitle, PlanGate } from '../components/ui';
import { describeError } from '../errors';
import { SourceImportForm } from '../import-source/SourceImportForm';
import { readImportFile, SAMPLE_CSV, type ImportPreview, type ImportResult, type PreviewRow } from '../links/csv-import';

/** Items per request: small enough for a progress bar that moves, far under the API's 1,000. */
const CHUNK = 100;
/** Rows the table shows at once; the counts above it cover the whole file. */
const SHOWN_ROWS = 200;

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** What a row carries besides its destination, in a line. */
function settingsOf(item: PreviewRow['item']): string {
  const parts = [
    item.customSlug && `slug ${String(item.customSlug)}`,
    item.maxClicks !== undefined && `max clicks ${String(item.maxClicks)}`,
    item.expiresAt && `expires ${String(item.expiresAt)}`,
    item.activeFrom && `active from ${String(item.activeFrom)}`,
    item.blockedCountries !== undefined && `blocked in ${Array.isArray(item.blockedCountries) ? item.blockedCountries.join(', ') : String(item.blockedCountries)}`,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** A row's state: its problems, what became of it once sent, or ready. */
function RowState({ row, result }: { row: PreviewRow; result: ImportResult | undefined }) {
  if (row.problems.length > 0) {
    return (
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconAlertTriangle size={16} color="var(--mantine-color-orange-filled)" aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Text size="sm">
          <strong>Not imported:</strong> {row.problems.map((p) => p.message).join('; ')}
        </Text>
      </Group>
    );
  }
  if (result?.shortUrl) {
    return (
      <Group gap={2} wrap="nowrap">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <strong>Created</strong> {result.shortUrl}
        </Text>
        <CopyValue value={result.shortUrl} label={`Copy short URL of row ${row.row}`} />
      </Group>
    );
  }
  if (result) {
    const why = describeError(new ApiError(400, (result.code ?? 'BAD_REQUEST') as ApiError['code'], result.error ?? 'The server refused this row', null));
    return (
      <Text size="sm">
        <strong>Failed:</strong> {why}
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <IconCircleCheck size={16} color="var(--mantine-color-teal-filled)" aria-hidden />
      <Text size="sm">Ready</Text>
    </Group>
  );
}

function RowsTable({ preview, results, onlyProblems }: { preview: ImportPreview; results: Map<number, ImportResult>; onlyProblems: boolean }) {
  const rows = onlyProblems ? preview.rows.filter((r) => r.problems.length > 0) : preview.rows;
  return (
    <Paper withBorder radius="md">
      <Table aria-label="Rows of the file" verticalSpacing="xs" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={64}>{preview.rowName}</Table.Th>
            <Table.Th>Link</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.slice(0, SHOWN_ROWS).map((row) => (
            <Table.Tr key={row.row}>
              <Table.Td>{row.row}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm">{row.item.url ? String(row.item.url) : '—'}</Text>
                {settingsOf(row.item) && <Text size="xs">{settingsOf(row.item)}</Text>}
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <RowState row={row} result={results.get(row.row)} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {rows.length > SHOWN_ROWS && (
        <Text size="sm" p="sm">
          The first {SHOWN_ROWS.toLocaleString()} of {plural(rows.length, 'row')} are shown; the import takes them all.
        </Text>
      )}
    </Paper>
  );
}

function Importer() {
  const queries = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [readError, setReadError] = useState<unknown>(null);
  const [running, setRunning] = useState(false);
  const [results, setResults] = useState<Map<number, ImportResult>>(new Map());
  /** How many of the ready rows have been sent: the import goes on from here after a stop. */
  const [sent, setSent] = useState(0);
  const [stopped, setStopped] = useState<unknown>(null);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const sample = useMemo(() => `data:text/csv;charset=utf-8,${encodeURIComponent(SAMPLE_CSV)}`, []);

  const ready = useMemo(() => preview?.rows.filter((r) => r.problems.length === 0) ?? [], [preview]);
  const flagged = (preview?.rows.length ?? 0) - ready.length;
  const finished = preview !== null && ready.length > 0 && sent >= ready.length;

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setPreview(null);
    setResults(new Map());
    setReadError(null);
    setStopped(null);
    setSent(0);
    setOnlyProblems(false);
    if (!chosen) return;
    try {
      setPreview(await readImportFile(chosen));
    } catch (error) {
      setReadError(error);
    }
  };

  const run = async () => {
    setRunning(true);
    setStopped(null);
    const collected = new Map(results);
    let done = sent;
    try {
      while (done < ready.length) {
        const chunk = ready.slice(done, done + CHUNK);
        const answer = await snip.post('/api/bulk', { body: { urls: chunk.map((r) => r.item) } });
        for (const r of answer.results) {
          const row = chunk[r.index]!.row;
          collected.set(row, { row, url: r.url, shortUrl: r.shortUrl, error: r.error, code: r.code });
        }
        done += chunk.length;
        setResults(new Map(collected));
        setSent(done);
      }
    } catch (error) {
      // A refused request (a rate limit, a dropped connection) stops the import where it is: the rows before are done.
      setStopped(error);
    } finally {
      setRunning(false);
      void queries.invalidateQueries({ queryKey: ['links'] });
    }
  };

  const created = [...results.values()].filter((r) => r.shortUrl).length;
  const failed = results.size - created;
  const remaining = ready.length - sent;
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <FileInput
            label="CSV or JSON file"
            description="CSV: a header row with a url column; customSlug (or fullPath), expiresAt, maxClicks, activeFrom and blockedCountries are optional. JSON: a Snip export, a list of links or one link per line."
            accept=".csv,text/csv,.json,application/json,.jsonl,.ndjson"
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the file' }}
            value={file}
            onChange={choose}
            leftSection={<IconUpload size={16} aria-hidden />}
          />
          <Anchor href={sample} download="snip-import-sample.csv" size="sm">
            Download a sample CSV
          </Anchor>
          <ErrorNotice error={readError} title="The file could not be read" />
          {preview && (
            <Stack gap={4}>
              <Text size="sm">
                {plural(preview.rows.length, 'row')} in {file?.name}: {plural(ready.length, 'link')} ready to import
                {flagged > 0 ? `, ${plural(flagged, 'row')} with problems that will not be imported` : ''}. Nothing is created until you import.
              </Text>
              {preview.ignoredColumns.length > 0 && <Text size="sm">Columns an import does not read: {preview.ignoredColumns.join(', ')}.</Text>}
            </Stack>
          )}
          {preview && (
            <Group justify="space-between" wrap="wrap" gap="sm">
              {flagged > 0 ? <Switch label="Only rows with problems" checked={onlyProblems} onChange={(e) => setOnlyProblems(e.currentTarget.checked)} /> : <span />}
              <Button onClick={() => void run()} loading={running} disabled={ready.length === 0 || finished}>
                {ready.length === 0 ? 'No links to import' : sent > 0 && !finished ? `Import the remaining ${plural(remaining, 'link')}` : `Import ${plural(ready.length, 'link')}`}
              </Button>
            </Group>
          )}
          {(running || sent > 0) && (
            <Stack gap={4}>
              <Progress value={ready.length ? (sent / ready.length) * 100 : 0} aria-label="Import progress" animated={running} />
              <Text size="sm" role="status">
                {sent} of {plural(ready.length, 'link')} sent · {created} created · {failed} failed
                {finished ? '. The import is done: choose another file to import more.' : ''}
              </Text>
            </Stack>
          )}
          {stopped ? <ErrorNotice error={stopped} title={`The import stopped after ${plural(sent, 'link')}`} /> : null}
        </Stack>
      </Paper>
      {preview && preview.rows.length > 0 && <RowsTable preview={preview} results={results} onlyProblems={onlyProblems} />}
    </Stack>
  );
}

export function ImportPage() {
  return (
    <>
      <PageTitle
        title="Bulk import"
        description="Create many links at once from a CSV or JSON file or from another shortener: check the preview first, then import; each link succeeds or fails on its own."
      />
      <PlanGate allows={(limits) => limits.apiAccess && limits.bulkRequestsPerHour !== 0} feature="Bulk import">
        <Stack gap="xl">
          <Stack gap="sm" component="section" aria-labelledby="import-file-heading">
            <Title order={2} size="h4" id="import-file-heading">
              From a file
            </Title>
            <Importer />
          </Stack>
          <Stack gap="sm" component="section" aria-labelledby="import-source-heading">
            <Title order={2} size="h4" id="import-source-heading">
              From another shortener
            </Title>
            <Text size="sm" c="dimmed">
              Shlink, Kutt, YOURLS, Bitly or Dub: every link of the account the key belongs to. A link on one of your active domains keeps its short path (on
              Snip&apos;s own host too, when the server&apos;s operator imports); others get a new one and keep their old URL in their record.
            </Text>
            <SourceImportForm />
          </Stack>
        </Stack>
      </PlanGate>
    </>
  );
}
