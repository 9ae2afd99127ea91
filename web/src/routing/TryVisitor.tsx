import { Alert, Anchor, Button, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { shortPathParams, snip, type Answer, type Query } from '../api';
import { ErrorNotice } from '../components/ui';

type Resolved = Answer<'/api/v1/links/{shortPath}/resolve', 'get'>;

/** Typical user agents, so a person tries a device rule without pasting one. */
const AGENTS: { label: string; value: string }[] = [
  { label: 'None given', value: '' },
  { label: 'iPhone (Safari)', value: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1' },
  { label: 'Android phone (Chrome)', value: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36' },
  { label: 'Windows (Chrome)', value: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36' },
  { label: 'Mac (Safari)', value: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15' },
  { label: 'Linux (Firefox)', value: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' },
  { label: 'Chromebook', value: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36' },
];

function why(result: Resolved): string {
  switch (result.reason) {
    case 'rule':
      return `Rule ${(result.rule ?? 0) + 1} matched.`;
    case 'variant':
      return 'No rule matched: this visitor’s variant of the A/B split.';
    case 'destination':
      return 'No rule matched: the link’s destination.';
    case 'expired':
      return result.url ? 'The link has ended: its expired URL.' : 'The link has ended: the visitor sees its “gone” page.';
    case 'password':
      return 'The visitor is asked for the password first.';
    case 'blocked':
      return 'Visitors from this country are blocked.';
    case 'disabled':
      return "The server's operator disabled the link: visitors see a page saying so.";
  }
}

/** Asks the server where a visitor would go with the saved routing, counting nothing. */
export function TryVisitor({ shortPath }: { shortPath: string }) {
  const [visitor, setVisitor] = useState({ userAgent: '', country: '', language: '', query: '', address: '' });
  const resolve = useMutation({
    mutationFn: () => {
      const query = Object.fromEntries(Object.entries(visitor).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, v.trim()])) as Query<'/api/v1/links/{shortPath}/resolve', 'get'>;
      return snip.get('/api/v1/links/{shortPath}/resolve', { params: { ...shortPathParams(shortPath), query } });
    },
  });
  const set = (field: keyof typeof visitor) => (e: { currentTarget: { value: string } }) => setVisitor({ ...visitor, [field]: e.currentTarget.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    resolve.mutate();
  };

  return (
    <form onSubmit={submit} aria-label="Try a visitor" noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Tries the saved routing: save your changes first.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NativeSelect label="Visitor’s browser" data={AGENTS} value={visitor.userAgent} onChange={set('userAgent')} />
          <TextInput label="Visitor’s country" description="ISO code, like FR" maxLength={2} value={visitor.country} onChange={set('country')} />
          <TextInput label="Visitor’s language" description="Like fr-CA or “de;q=0.8, en”" value={visitor.language} onChange={set('language')} />
          <TextInput label="Query string" description="Added to the short URL, without ?" value={visitor.query} onChange={set('query')} />
          <TextInput label="Visitor’s IP address" value={visitor.address} onChange={set('address')} />
        </SimpleGrid>
        <div>
          <Button type="submit" variant="light" loading={resolve.isPending}>
            Try this visitor
          </Button>
        </div>
        <div aria-live="polite">
          {resolve.isError && <ErrorNotice error={resolve.error} title="Could not try it" />}
          {resolve.data && (
            <Alert color={resolve.data.url ? 'teal' : 'gray'} title={resolve.data.url ? 'Goes to' : 'Goes nowhere'} data-testid="resolve-result">
              {resolve.data.url && (
                <Anchor href={resolve.data.url} target="_blank" rel="noreferrer" style={{ overflowWrap: 'anywhere' }}>
                  {resolve.data.url}
                </Anchor>
              )}
              <Text size="sm" mt={4}>
                {why(resolve.data)}
              </Text>
            </Alert>
          )}
        </div>
      </Stack>
    </form>
  );
}
