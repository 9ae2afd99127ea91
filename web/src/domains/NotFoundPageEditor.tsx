import { Button, Group, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip, type ApiErrorCode } from '../api';
import { ErrorNotice, isFormError } from '../components/ui';
import { fieldMessage } from '../errors';
import { withAssumedScheme } from '../url-input';
import { domainParams, DOMAINS_KEY, type NotFoundPage } from './types';

type Kind = 'none' | NotFoundPage['type'];

const URL_CODES: ApiErrorCode[] = ['INVALID_URL', 'MISSING_REDIRECT_URL'];
const HTML_CODES: ApiErrorCode[] = ['HTML_TOO_LONG', 'MISSING_HTML'];
const HTML_MAX = 10_000;

/** What a visitor of an unknown path on the domain gets: Snip's own page, a redirect, or the domain's HTML. */
export function NotFoundPageEditor({ domain, current }: { domain: string; current: NotFoundPage | null }) {
  const queries = useQueryClient();
  const [kind, setKind] = useState<Kind>(current?.type ?? 'none');
  const [redirectUrl, setRedirectUrl] = useState(current?.redirectUrl ?? '');
  const [html, setHtml] = useState(current?.html ?? '');
  const save = useMutation({
    mutationFn: () => {
      const notFoundPage = kind === 'none' ? null : kind === 'redirect' ? { type: 'redirect', redirectUrl: withAssumedScheme(redirectUrl) } : { type: 'html', html };
      return snip.patch('/api/user/domains/{domain}', { params: domainParams(domain), body: { notFoundPage } });
    },
    onSuccess: (saved) => {
      // The server strips scripts: show what it kept, not what was typed.
      if (saved.notFoundPage?.type === 'html') setHtml(saved.notFoundPage.html ?? '');
      void queries.invalidateQueries({ queryKey: DOMAINS_KEY });
      notifications.show({ color: 'teal', message: `404 page of ${domain} saved` });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`404 page of ${domain}`}>
      <Stack gap="sm">
        <Radio.Group
          label="Unknown paths show"
          value={kind}
          onChange={(value) => {
            setKind(value as Kind);
            save.reset();
          }}
        >
          <Stack gap={6} mt={6}>
            <Radio value="none" label="Snip's standard 404 page" />
            <Radio value="redirect" label="A redirect to a URL" />
            <Radio value="html" label="My own HTML page" />
          </Stack>
        </Radio.Group>
        {kind === 'redirect' && (
          <TextInput
            label="Redirect URL"
            type="url"
            placeholder="https://example.com/"
            value={redirectUrl}
            onChange={(e) => setRedirectUrl(e.currentTarget.value)}
            error={fieldMessage(save.error, URL_CODES, { url: 'Redirect URL' })}
          />
        )}
        {kind === 'html' && (
          <Textarea
            label="404 page HTML"
            description={`At most ${HTML_MAX.toLocaleString()} characters (${html.length.toLocaleString()} now); scripts are removed`}
            autosize
            minRows={4}
            maxRows={12}
            value={html}
            onChange={(e) => setHtml(e.currentTarget.value)}
            error={fieldMessage(save.error, HTML_CODES)}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        )}
        {isFormError(save.error, [...URL_CODES, ...HTML_CODES]) && <ErrorNotice error={save.error} title="The 404 page was not saved" />}
        <Group justify="flex-end">
          <Button type="submit" size="sm" variant="light" loading={save.isPending}>
            Save 404 page
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
