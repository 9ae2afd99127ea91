import { Checkbox, SimpleGrid, TextInput } from '@mantine/core';
import type { ApiErrorCode } from '../api';
import { fieldMessage, type FieldLabels } from '../errors';
import { EVENTS } from './types';

export const URL_CODES: ApiErrorCode[] = ['MISSING_URL', 'INVALID_URL', 'DUPLICATE_WEBHOOK'];
export const NAME_CODES: ApiErrorCode[] = ['MISSING_NAME', 'INVALID_NAME'];
export const EVENT_CODES: ApiErrorCode[] = ['MISSING_EVENTS', 'INVALID_EVENTS'];
/** The codes a field shows under itself; any other refusal is the form's. */
export const FIELD_CODES = [...URL_CODES, ...NAME_CODES, ...EVENT_CODES];

/** The form's words for the webhook fields the API names. */
export const WEBHOOK_LABELS: FieldLabels = { url: 'Endpoint URL', name: 'Name', events: 'Events' };

export interface WebhookDraft {
  url: string;
  name: string;
  events: string[];
}

/** A webhook's endpoint, name and events, as the create form and the edit dialog both ask for them. */
export function WebhookFields({ draft, onChange, error }: { draft: WebhookDraft; onChange: (draft: WebhookDraft) => void; error: unknown }) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="Endpoint URL"
          description="Snip POSTs each event here as JSON; https:// is assumed when left out"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://example.com/hooks/snip"
          value={draft.url}
          onChange={(e) => onChange({ ...draft, url: e.currentTarget.value })}
          error={fieldMessage(error, URL_CODES, WEBHOOK_LABELS)}
        />
        <TextInput
          label="Name"
          description="Optional; the endpoint's host name when empty"
          placeholder="Order system"
          value={draft.name}
          onChange={(e) => onChange({ ...draft, name: e.currentTarget.value })}
          error={fieldMessage(error, NAME_CODES, WEBHOOK_LABELS)}
        />
      </SimpleGrid>
      <Checkbox.Group label="Events" description="Choose at least one" value={draft.events} onChange={(events) => onChange({ ...draft, events })} error={fieldMessage(error, EVENT_CODES, WEBHOOK_LABELS)}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs" mt="xs">
          {EVENTS.map((event) => (
            <Checkbox key={event.name} value={event.name} label={event.name} description={event.what} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
    </>
  );
}
