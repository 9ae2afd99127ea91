import { Button, Divider, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { shortPathParams, snip } from '../api';
import { ErrorNotice } from '../components/ui';
import type { Link } from '../links/api';
import { changesFrom, draftOf, variantsProblem, type RoutingDraft } from './draft';
import { PasswordEditor } from './PasswordEditor';
import { RulesEditor } from './RulesEditor';
import { SocialPreviewEditor } from './SocialPreviewEditor';
import { TryVisitor } from './TryVisitor';
import { VariantsEditor } from './VariantsEditor';

function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mb="xs">
        {title}
      </Title>
      {children}
    </section>
  );
}

/** The editor over one saved state of the link: a save reloads the link, and the new state starts a fresh draft. */
function RoutingForm({ link, shortPath }: { link: Link; shortPath: string }) {
  const queries = useQueryClient();
  const [draft, setDraft] = useState<RoutingDraft>(() => draftOf(link));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (changes: ReturnType<typeof changesFrom>) => snip.patch('/api/links/{shortPath}', { params: shortPathParams(shortPath), body: changes }),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: ['link', shortPath] });
      void queries.invalidateQueries({ queryKey: ['links'] });
      // A new password leaves the saved state as it was when the link was already protected: do not send it twice.
      setDraft((d) => ({ ...d, password: { kind: 'keep' } }));
      notifications.show({ color: 'teal', message: 'Routing saved' });
    },
  });
  const edit = (fields: Partial<RoutingDraft>) => {
    setProblem(null);
    save.reset();
    setDraft((d) => ({ ...d, ...fields }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const refused = variantsProblem(draft.variants);
    if (refused) return setProblem(refused);
    const changes = changesFrom(link, draft);
    if (Object.keys(changes).length === 0) return setProblem('Nothing changed: there is nothing to save.');
    save.mutate(changes);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Routing">
      <Stack gap="lg">
        <Part id="routing-rules" title="Rules">
          <RulesEditor rules={draft.rules} onChange={(rules) => edit({ rules })} />
        </Part>
        <Divider />
        <Part id="routing-variants" title="A/B split">
          <VariantsEditor variants={draft.variants} onChange={(variants) => edit({ variants })} />
        </Part>
        <Divider />
        <Part id="routing-password" title="Password">
          <PasswordEditor isProtected={link.passwordProtected} change={draft.password} onChange={(password) => edit({ password })} />
        </Part>
        <Divider />
        <Part id="routing-expired" title="After the link ends">
          <TextInput
            label="Expired URL"
            description="Where visitors go once the link has expired or used up its clicks; empty: a “gone” page"
            type="url"
            placeholder="https://"
            value={draft.expiredUrl}
            onChange={(e) => edit({ expiredUrl: e.currentTarget.value })}
          />
        </Part>
        <Divider />
        <Part id="routing-preview" title="Social preview">
          <SocialPreviewEditor
            preview={{ title: draft.title, description: draft.description, image: draft.image }}
            shortUrl={link.url}
            destination={link.long}
            onChange={(fields) => edit(fields)}
          />
        </Part>
        <div role="alert">
          {problem && (
            <Text c="red" size="sm" fw={600}>
              {problem}
            </Text>
          )}
        </div>
        {save.isError && <ErrorNotice error={save.error} title="Routing not saved" />}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save routing
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const savedState = (link: Link): string =>
  JSON.stringify([link.rules, link.variants, link.passwordProtected, link.expiredUrl, link.socialPreview]);

/** The link page's "Routing" section: rules, A/B split, password, expired URL and social preview, saved in one change. */
export function RoutingSection({ link, shortPath }: { link: Link; shortPath: string }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="routing-title">
      <Title order={2} size="h4" id="routing-title" mb="sm">
        Routing
      </Title>
      <RoutingForm key={savedState(link)} link={link} shortPath={shortPath} />
      <Divider my="lg" />
      <Title order={3} size="h5" mb="xs">
        Try a visitor
      </Title>
      <TryVisitor shortPath={shortPath} />
    </Paper>
  );
}
