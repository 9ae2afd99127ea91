import { withAssumedScheme } from '../url-input';
import { Anchor, Button, Code, Collapse, Group, NumberInput, Paper, Select, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { messageOf, snip, type ApiErrorCode } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import { useProfile } from '../profile';
import { useAllows } from '../plan';
import { useAccount } from '../session';
import { createLink, isoFromLocal } from './api';
import { withUtm } from './utm-preview';

const URL_CODES: ApiErrorCode[] = ['MISSING_URL', 'INVALID_URL'];
const SLUG_CODES: ApiErrorCode[] = ['INVALID_SLUG', 'SLUG_TAKEN', 'PREMIUM_REQUIRED', 'NAMESPACE_REQUIRED'];
const EXPIRES_CODES: ApiErrorCode[] = ['INVALID_EXPIRES_AT', 'EXPIRES_AT_IN_PAST', 'EXPIRES_BEFORE_ACTIVE'];
const ACTIVE_CODES: ApiErrorCode[] = ['INVALID_ACTIVE_FROM', 'ACTIVE_FROM_IN_PAST'];
const MAX_CLICKS_CODES: ApiErrorCode[] = ['INVALID_MAX_CLICKS'];
const FIELD_CODES = [...URL_CODES, ...SLUG_CODES, ...EXPIRES_CODES, ...ACTIVE_CODES, ...MAX_CLICKS_CODES];

/** The create form: the destination and one button, with every other option one click away. */
export function CreateLinkForm() {
  const account = useAccount();
  const canUseDomains = useAllows((limits) => limits.domains !== 0) ?? false;
  const profile = useProfile();
  const queries = useQueryClient();
  const [more, setMore] = useState(false);
  const [url, setUrl] = useState('');
  const [slug, setSlug] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [activeFrom, setActiveFrom] = useState('');
  const [maxClicks, setMaxClicks] = useState<number | string>('');
  const [domain, setDomain] = useState<string | null>(null);
  const [folderId, setFolderId] = useState<string | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [template, setTemplate] = useState<string | null>(null);

  const folders = useQuery({ queryKey: ['folders'], queryFn: () => snip.get('/api/folders'), enabled: more });
  const knownTags = useQuery({ queryKey: ['tags'], queryFn: () => snip.get('/api/tags'), enabled: more });
  const templates = useQuery({ queryKey: ['utm-templates'], queryFn: () => snip.get('/api/utm-templates'), enabled: more });
  const domains = useQuery({
    queryKey: ['domains'],
    queryFn: () => snip.get('/api/user/domains'),
    enabled: more && canUseDomains,
  });
  const canSlug = profile.data?.limits.customSlugs ?? false;

  const create = useMutation({
    mutationFn: () =>
      createLink({
        url: withAssumedScheme(url),
        customSlug: slug.trim() || undefined,
        expiresAt: isoFromLocal(expiresAt),
        activeFrom: isoFromLocal(activeFrom),
        maxClicks: typeof maxClicks === 'number' ? maxClicks : undefined,
        domain: domain ?? undefined,
        utmTemplateId: template ?? undefined,
        folderId: folderId ?? undefined,
        tags,
      }),
    onSuccess: ({ problem }) => {
      void queries.invalidateQueries({ queryKey: ['links'] });
      void queries.invalidateQueries({ queryKey: ['tags'] });
      // The short URL itself is shown once, in the list, so there is one place to read and copy it from.
      notifications.show({
        color: problem ? 'yellow' : 'teal',
        title: problem ? 'Link created, but not all options were saved' : 'Link created',
        message: problem ? messageOf(problem) : 'Its short URL is at the top of your links.',
      });
      setUrl('');
      setSlug('');
      setExpiresAt('');
      setActiveFrom('');
      setMaxClicks('');
      // Folder, tags, UTM template and domain stay for the next link: a batch of links usually shares them.
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const error = create.error;
  const chosenTemplate = (templates.data?.templates ?? []).find((t) => t.id === template);
  const utmPreview = chosenTemplate ? withUtm(url, chosenTemplate) : null;
  const folderName = (folders.data?.folders ?? []).find((f) => f.id === folderId)?.name;
  const kept = [
    tags.length > 0 ? `tags ${tags.join(', ')}` : null,
    folderName ? `folder ${folderName}` : null,
    chosenTemplate ? `UTM template ${chosenTemplate.name}` : null,
    domain ? `domain ${domain}` : null,
  ].filter((part) => part !== null);

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} radius="md" mb={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="create-link-heading">
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text id="create-link-heading" fw={600} component="h2" m={0} size="md">
              Shorten a link
            </Text>
            <Anchor component="button" type="button" size="sm" onClick={() => setMore((open) => !open)} aria-expanded={more} aria-controls="create-link-options">
              <Group gap={4} wrap="nowrap">
                {more ? 'Fewer options' : 'More options'}
                {more ? <IconChevronUp size={14} aria-hidden /> : <IconChevronDown size={14} aria-hidden />}
              </Group>
            </Anchor>
          </Group>
          {isFormError(error, FIELD_CODES) && <ErrorNotice error={error} title="The link was not created" />}
          <Group align="flex-start" gap="sm" wrap="nowrap">
            <TextInput
              label="Destination URL"
              placeholder="https://example.com/a/long/page"
              type="url"
              required
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={fieldError(error, URL_CODES)}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Button type="submit" loading={create.isPending} mt={25} style={{ flexShrink: 0 }}>
              Create link
            </Button>
          </Group>
          {utmPreview && (
            <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
              With UTM parameters: <Code data-testid="utm-preview">{utmPreview}</Code>
            </Text>
          )}
          {!more && kept.length > 0 && (
            <Text size="xs" c="dimmed">
              Next links get {kept.join(' · ')}
            </Text>
          )}
          <Collapse expanded={more} id="create-link-options">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
              <TextInput
                label="Custom slug"
                description={canSlug ? `Your link becomes ${account.namespace ?? 'namespace'}/<slug>` : 'Your plan does not include custom slugs'}
                disabled={!canSlug}
                value={slug}
                onChange={(e) => setSlug(e.currentTarget.value)}
                error={fieldError(error, SLUG_CODES)}
              />
              <TextInput label="Expires at" type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.currentTarget.value)} error={fieldError(error, EXPIRES_CODES)} />
              <TextInput label="Active from" type="datetime-local" value={activeFrom} onChange={(e) => setActiveFrom(e.currentTarget.value)} error={fieldError(error, ACTIVE_CODES)} />
              <NumberInput label="Max clicks" description="Stops redirecting after this many" min={1} allowDecimal={false} value={maxClicks} onChange={setMaxClicks} error={fieldError(error, MAX_CLICKS_CODES)} />
              <Select
                label="Folder"
                placeholder="No folder"
                clearable
                data={(folders.data?.folders ?? []).map((f) => ({ value: f.id, label: f.name }))}
                value={folderId}
                onChange={setFolderId}
              />
              <TagsInput
                label="Tags"
                description="Type a tag and press Enter"
                data={(knownTags.data?.tags ?? []).map((t) => t.tag)}
                value={tags}
                onChange={setTags}
              />
              <Select
                label="UTM template"
                placeholder="None"
                clearable
                data={(templates.data?.templates ?? []).map((t) => ({ value: t.id, label: t.name }))}
                value={template}
                onChange={setTemplate}
              />
              {canUseDomains && (
                <Select
                  label="Domain"
                  placeholder="Default"
                  clearable
                  data={(domains.data?.domains ?? []).filter((d) => d.status === 'active').map((d) => d.domain)}
                  value={domain}
                  onChange={setDomain}
                />
              )}
            </SimpleGrid>
          </Collapse>
        </Stack>
      </form>
    </Paper>
  );
}
