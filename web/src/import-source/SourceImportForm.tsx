import { Button, Checkbox, Group, Paper, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip, type ApiErrorCode } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import { useAllows } from '../plan';
import { withAssumedScheme } from '../url-input';
import { SourceImportResult } from './SourceImportResult';
import { importFromSource, sourceInfo, SOURCES, type SourceImportInput, type SourceImportSummary, type SourceName } from './sources';

/** A refused key comes back in the answer's `error` (the run's summary), shown with the result; no thrown code belongs to a field. */
const KEY_CODES: ApiErrorCode[] = [];
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * Every link of another shortener, previewed first: the preview is a dry run of the same request, so its rows are
 * what the import will do. Changing any field drops the preview, so the import button never runs something other
 * than what was shown.
 */
export function SourceImportForm() {
  const queries = useQueryClient();
  const canUseDomains = useAllows((limits) => limits.domains !== 0) ?? false;
  const domains = useQuery({ queryKey: ['domains'], queryFn: () => snip.get('/api/user/domains'), enabled: canUseDomains });
  const activeDomains = (domains.data?.domains ?? []).filter((d) => d.status === 'active').map((d) => d.domain);

  const [from, setFrom] = useState<SourceName>('shlink');
  const [address, setAddress] = useState('');
  const [key, setKey] = useState('');
  const [domain, setDomain] = useState<string | null>(null);
  const [withClicks, setWithClicks] = useState(false);
  const [missing, setMissing] = useState<{ address?: string; key?: string }>({});
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [failedRun, setFailedRun] = useState<'preview' | 'import'>('preview');
  const [preview, setPreview] = useState<SourceImportSummary | null>(null);
  const [result, setResult] = useState<SourceImportSummary | null>(null);

  const info = sourceInfo(from);
  /** Any change to what would be imported: the preview and result no longer describe it. */
  const changed = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setMissing({});
    setPreview(null);
    setResult(null);
    setError(null);
  };

  const request = (dryRun: boolean): SourceImportInput | null => {
    const source = withAssumedScheme(address);
    const problems = {
      address: !source && !info.publicApi ? `API address is required for ${info.label}: the address of its server, such as https://${from}.example.com` : undefined,
      key: key.trim() ? undefined : `API key is required: ${info.label} answers only with one`,
    };
    setMissing(problems);
    if (problems.address || problems.key) return null;
    return { from, ...(source ? { source } : {}), sourceKey: key.trim(), ...(domain ? { domain } : {}), withClicks, dryRun };
  };

  const run = async (dryRun: boolean) => {
    const body = request(dryRun);
    if (!body) return;
    setBusy(dryRun ? 'preview' : 'import');
    setError(null);
    try {
      const answer = await importFromSource(body);
      if (dryRun) {
        setPreview(answer);
        setResult(null);
      } else {
        setResult(answer);
      }
    } catch (caught) {
      setError(caught);
      setFailedRun(dryRun ? 'preview' : 'import');
    } finally {
      setBusy(null);
      if (!dryRun) void queries.invalidateQueries({ queryKey: ['links'] });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(true);
  };

  // An import that the source cut short may run again (it continues); one that finished has nothing left to do.
  const ran = result !== null && !result.error;
  const toImport = preview?.imported ?? 0;
  const importLabel = result?.error ? 'Import again to continue' : toImport === 0 ? 'No links to import' : `Import ${plural(toImport, 'link')}`;

  return (
    <Stack gap="md">
      <Paper withBorder p={{ base: 'sm', sm: 'md' }} radius="md">
        <form onSubmit={submit} noValidate aria-label="Import from another shortener">
          <Stack gap="sm">
            {isFormError(error, KEY_CODES) && <ErrorNotice error={error} title={failedRun === 'import' ? 'The import did not run' : 'The preview did not run'} />}
            <Select
              label="Source"
              data={SOURCES.map((s) => ({ value: s.value, label: s.label }))}
              value={from}
              onChange={(value) => value && changed(setFrom)(value as SourceName)}
              allowDeselect={false}
              required
            />
            <TextInput
              label="API address"
              description={info.publicApi ? `Leave empty for ${info.label}'s public API; fill it in for a self-hosted ${info.label}.` : `The address of your ${info.label} server.`}
              placeholder={info.publicApi ?? `https://${from}.example.com`}
              type="url"
              required={!info.publicApi}
              value={address}
              onChange={(e) => changed(setAddress)(e.currentTarget.value)}
              error={missing.address}
            />
            <PasswordInput
              label="API key"
              description={`${info.keyHint} Used for this import only, never stored.`}
              required
              autoComplete="off"
              value={key}
              onChange={(e) => changed(setKey)(e.currentTarget.value)}
              error={missing.key ?? fieldError(error, KEY_CODES)}
            />
            {canUseDomains && activeDomains.length > 0 && (
              <Select
                label="Domain for new links"
                description="Links whose domain does not move to Snip get new short codes here. Links on Snip's host or one of your domains keep their paths."
                placeholder="Your default domain"
                data={activeDomains}
                value={domain}
                onChange={changed(setDomain)}
                clearable
              />
            )}
            <Checkbox
              label="Bring clicks"
              description="Shlink's visits become clicks in the statistics; Bitly's click totals come along (one request per link). Other sources' totals come anyway."
              checked={withClicks}
              onChange={(e) => changed(setWithClicks)(e.currentTarget.checked)}
            />
            <Group justify="flex-end" gap="sm" wrap="wrap">
              <Button type="submit" variant={preview ? 'default' : 'filled'} loading={busy === 'preview'} disabled={busy === 'import'}>
                Preview
              </Button>
              {preview && (
                <Button type="button" onClick={() => void run(false)} loading={busy === 'import'} disabled={busy === 'preview' || ran || (toImport === 0 && !result?.error)}>
                  {importLabel}
                </Button>
              )}
            </Group>
            {ran && (
              <Text size="sm" c="dimmed">
                The import is done. Change the source or preview again to import more.
              </Text>
            )}
          </Stack>
        </form>
      </Paper>
      {(result ?? preview) && <SourceImportResult summary={(result ?? preview)!} />}
    </Stack>
  );
}
