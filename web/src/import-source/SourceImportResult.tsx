import { Alert, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle, IconPlayerSkipForward } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ApiError, type ApiErrorCode } from '../api';
import { CopyValue } from '../components/ui';
import { describeError, limitNamedIn } from '../errors';
import type { SourceImportRow, SourceImportSummary } from './sources';

/** Rows the table shows at once; the counts above it cover every link of the source. */
const SHOWN_ROWS = 200;

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The counts in a sentence, as a preview promises them or as a run did them. */
export function countsOf(summary: SourceImportSummary): string {
  if (summary.dryRun) {
    return `${plural(summary.imported, 'link')} will be imported, ${summary.skipped.toLocaleString()} skipped, ${summary.failed.toLocaleString()} cannot be imported.`;
  }
  const clicks = summary.clicks > 0 ? ` ${plural(summary.clicks, 'click')} came with them.` : '';
  return `${plural(summary.imported, 'link')} imported, ${summary.skipped.toLocaleString()} skipped, ${summary.failed.toLocaleString()} could not be imported.${clicks}`;
}

/** A row's reason in people's words: the API's sentence for its code, or the note on a link that got a new path. */
function reasonOf(row: SourceImportRow): string {
  if (!row.message) return '';
  if (row.outcome === 'imported') return row.message;
  return describeError(new ApiError(409, (row.code ?? 'BAD_REQUEST') as ApiErrorCode, row.message, null));
}

const OUTCOME: Record<SourceImportRow['outcome'], { preview: string; done: string; icon: ReactNode }> = {
  imported: { preview: 'Will be imported', done: 'Imported', icon: <IconCircleCheck size={16} color="var(--mantine-color-teal-filled)" aria-hidden /> },
  skipped: { preview: 'Skipped', done: 'Skipped', icon: <IconPlayerSkipForward size={16} color="var(--mantine-color-dimmed)" aria-hidden /> },
  failed: { preview: 'Cannot be imported', done: 'Not imported', icon: <IconAlertTriangle size={16} color="var(--mantine-color-orange-filled)" aria-hidden /> },
};

/** The run stopped part-way (the source, or the plan's daily link limit): what came in, and that another run continues. */
function StoppedNotice({ summary }: { summary: SourceImportSummary }) {
  if (!summary.error) return null;
  return summary.error.code === 'RATE_LIMITED' ? <LimitNotice summary={summary} /> : <SourceNotice summary={summary} />;
}

function SourceNotice({ summary }: { summary: SourceImportSummary }) {
  const error = summary.error!;
  const why = describeError(new ApiError(502, error.code as ApiErrorCode, error.message, null));
  const title = summary.dryRun ? 'The source stopped answering part-way through the preview' : 'The source stopped answering part-way through the import';
  const what = summary.dryRun
    ? `The preview covers the ${plural(summary.rows.length, 'link')} read before that.`
    : `${plural(summary.imported, 'link')} came in before that and stay imported. Running the import again continues: the links already imported are skipped, never made twice.`;
  return <StopAlert code={error.code} title={title} text={`${why} ${what}`} />;
}

/** A preview stops where the import would: a page that does not fit the day's links is not made. */
function LimitNotice({ summary }: { summary: SourceImportSummary }) {
  const error = summary.error!;
  const limit = limitNamedIn(error.message);
  const title = summary.dryRun ? 'Your plan’s daily link limit would stop this import part-way' : 'Your plan’s daily link limit stopped the import part-way';
  const what = summary.dryRun
    ? `The limit is ${limit}. The ${plural(summary.imported, 'link')} marked to be imported fit today; another run once the limit resets brings the rest.`
    : `The limit is ${limit}. ${plural(summary.imported, 'link')} came in before that and stay imported. Running the import again once the limit resets continues: the links already imported are skipped, never made twice.`;
  return <StopAlert code={error.code} title={title} text={what} />;
}

function StopAlert({ code, title, text }: { code: string; title: string; text: string }) {
  return (
    <Alert color="orange" title={title} role="alert" icon={<IconInfoCircle aria-hidden />} data-error-code={code}>
      {text}
    </Alert>
  );
}

/** What a preview says will happen to every link of the source, or what a run did: counts, then a row per link. */
export function SourceImportResult({ summary }: { summary: SourceImportSummary }) {
  const shown = summary.rows.slice(0, SHOWN_ROWS);
  return (
    <Stack gap="sm">
      <Text size="sm" role="status">
        {summary.dryRun ? 'Preview: ' : 'Done: '}
        {countsOf(summary)}
        {summary.dryRun ? ' Nothing is created until you import.' : ''}
      </Text>
      <StoppedNotice summary={summary} />
      {summary.rows.length > 0 && (
        <Paper withBorder radius="md">
          <Table aria-label={summary.dryRun ? 'Links of the source, previewed' : 'Links of the source, imported'} verticalSpacing="xs" layout="fixed" fz={{ base: 'xs', sm: 'sm' }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Source URL</Table.Th>
                <Table.Th>Snip URL</Table.Th>
                <Table.Th w={{ base: 84, sm: 160 }}>Outcome</Table.Th>
                <Table.Th>Reason</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((row, i) => (
                <Table.Tr key={`${i}-${row.source}`}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.source}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {row.shortUrl ? (
                      <Group gap={2} wrap="nowrap" align="flex-start">
                        <span style={{ minWidth: 0 }}>{row.shortUrl}</span>
                        {!summary.dryRun && row.outcome === 'imported' && <CopyValue value={row.shortUrl} label={`Copy ${row.shortUrl}`} />}
                      </Group>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" align="flex-start">
                      <span style={{ flexShrink: 0, display: 'inline-flex', marginTop: 2 }}>{OUTCOME[row.outcome].icon}</span>
                      <span>{summary.dryRun ? OUTCOME[row.outcome].preview : OUTCOME[row.outcome].done}</span>
                    </Group>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{reasonOf(row)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {summary.rows.length > SHOWN_ROWS && (
            <Text size="sm" p="sm">
              The first {SHOWN_ROWS.toLocaleString()} of {plural(summary.rows.length, 'link')} are shown; the counts above cover them all.
            </Text>
          )}
        </Paper>
      )}
    </Stack>
  );
}
