import { describeError, errorCodeOf } from '../errors';
import { ActionIcon, Alert, Button, Center, CopyButton, Group, Loader, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconInfoCircle, IconLock } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError, type ApiErrorCode } from '../api';
import { inSentence, usePlanLimits, type Capability } from '../plan';

/** The page's one h1, and the browser tab's title. */
export function PageTitle({ title, actions, description }: { title: string; actions?: ReactNode; description?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Snip`;
  }, [title]);
  return (
    <Stack gap={4} mb="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Title order={1} size="h2">
          {title}
        </Title>
        {actions}
      </Group>
      {description && (
        <Text c="dimmed" size="sm">
          {description}
        </Text>
      )}
    </Stack>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" mr="sm" aria-hidden />
      <Text c="dimmed">{label}</Text>
    </Center>
  );
}

/** An API refusal or failure, announced to screen readers. */
export function ErrorNotice({ error, title = 'That did not work' }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <Alert color="red" title={title} role="alert" icon={<IconInfoCircle aria-hidden />} data-error-code={errorCodeOf(error)}>
      {describeError(error)}
    </Alert>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap="xs" py="xl" ta="center">
      <Text fw={600}>{title}</Text>
      {children && <Text c="dimmed" size="sm">{children}</Text>}
    </Stack>
  );
}

/**
 * The message for a form field when the API refused with one of `codes`: inline field errors come from the API's
 * stable error codes, never from guessing at messages.
 */
export function fieldError(error: unknown, codes: readonly ApiErrorCode[]): string | undefined {
  return error instanceof ApiError && codes.includes(error.code) ? describeError(error) : undefined;
}

/** True when the error belongs to no field listed, so the form shows it above its fields. */
export function isFormError(error: unknown, fieldCodes: readonly ApiErrorCode[]): boolean {
  return Boolean(error) && !(error instanceof ApiError && fieldCodes.includes(error.code));
}

/**
 * Shows `children` when the signed-in account's plan `allows` the feature, as the server's plan limits say
 * (`<PlanGate allows={(limits) => limits.domains !== 0} feature="Custom domains">`); a hint otherwise, never a broken
 * button. An operator's limits come back unlimited, so operators pass every gate. When the limits cannot be read
 * the page shows anyway: the API's own refusal is the final word.
 */
export function PlanGate({ allows, feature, children }: { allows: Capability; feature: string; children: ReactNode }) {
  const { limits, isPending } = usePlanLimits();
  if (isPending) return <Loading />;
  if (!limits || allows(limits)) return <>{children}</>;
  return <PlanHint feature={feature} />;
}

/** Why a feature is missing and who can change that; `feature` is a noun phrase such as "Custom domains". */
export function PlanHint({ feature, children }: { feature: string; children?: ReactNode }) {
  return (
    <Alert color="grape" icon={<IconLock aria-hidden />} title={`Your plan does not include ${inSentence(feature)}`}>
      {children}
      {children ? ' ' : ''}Ask the person who runs this Snip server to change your plan.{' '}
      <Text component={Link} to="/account" inherit td="underline">
        See your plan
      </Text>
    </Alert>
  );
}

/** One click copies `value`; the button says so. */
export function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : label} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={copied ? 'Copied' : label}>
            {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** A labelled copy button with text, for secrets shown once. */
export function CopyTextButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Button size="xs" variant="light" color={copied ? 'teal' : 'blue'} onClick={copy} leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}>
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const number = new Intl.NumberFormat();
export const formatDateTime = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatNumber = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : number.format(value));
