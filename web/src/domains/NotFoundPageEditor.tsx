import { Button, Group, SegmentedControl, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ErrorNotice } from '../components/ui';

export interface NotFoundPage {
  type: 'redirect' | 'html';
  redirectUrl?: string | null;
  html?: string | null;
}

/** What a visitor of an unknown path on the domain gets: Snip's page, a redirect, or the domain's own HTML. */
export function NotFoundPageEditor({ domain, current }: { domain: string; current: NotFoundPage | null }) {
  const queries = useQueryClient();
  const [kind, setKind] = useState<'default' | 'redirect' | 'html'>(current?.type ?? 'default');
  const [redirectUrl, setRedirectUrl] = useState(current?.redirectUrl ?? '');
  const [html, setHtml] = useState(current?.html ?? '');
  const save = useMutation({
    mutationFn: () => {
      const notFoundPage = kind === 'default' ? null : kind === 'redirect' ? { type: 'redirect', redirectUrl: redirectUrl.trim() } : { type: 'html', html };
      return api(`/api/user/domains/${encodeURIComponent(domain)}`, { method: 'PATCH', body: { notFoundPage } });
    },
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['domains'] });
      notifications.show({ color: 'teal', message: `404 page of ${domain} saved` });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <SegmentedControl
          aria-label={`404 page of ${domain}`}
          value={kind}
          onChange={(v) => setKind(v as typeof kind)}
          data={[
            { value: 'default', label: "Snip's page" },
            { value: 'redirect', label: 'Redirect' },
            { value: 'html', label: 'Own HTML' },
          ]}
        />
        {kind === 'redirect' && <TextInput label="Redirect unknown paths to" type="url" value={redirectUrl} onChange={(e) => setRedirectUrl(e.currentTarget.value)} />}
        {kind === 'html' && <Textarea label="404 page HTML" description="Scripts are removed; plain inline styles are kept" autosize minRows={3} maxRows={10} value={html} onChange={(e) => setHtml(e.currentTarget.value)} />}
        <ErrorNotice error={save.error} title="Not saved" />
        <Group justify="flex-end">
          <Button type="submit" size="xs" variant="light" loading={save.isPending}>
            Save 404 page
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
