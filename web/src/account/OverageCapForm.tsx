import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip, type ApiErrorCode } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import type { Profile } from '../profile';
import { tierLabel } from '../session';
import { dollars } from './plan-format';
import { USAGE_KEY } from './usage';

const FIELD_CODES: ApiErrorCode[] = ['INVALID_LIMIT_CENTS', 'MISSING_LIMIT_CENTS'];

/**
 * The monthly cap on what clicks past the plan's number may cost. People think in dollars, the API takes cents:
 * the field is in dollars and says so, and 0 means "no cap" (the API's meaning), not "no overage".
 */
export function OverageCapForm({ profile, capCents }: { profile: Profile; capCents: number | null }) {
  const queries = useQueryClient();
  const [value, setValue] = useState<number | string>(capCents === null ? 0 : capCents / 100);
  const [missing, setMissing] = useState(false);
  const save = useMutation({
    mutationFn: (limitCents: number) => snip.post('/api/subscription/overage-limit', { body: { limitCents } }),
    onSuccess: (answer) => {
      void queries.invalidateQueries({ queryKey: USAGE_KEY });
      notifications.show({ color: 'teal', message: answer.limitCents === 0 ? 'Overage cap removed: overage is charged without a limit' : `Overage cap set to ${dollars(answer.limitCents)} a month` });
    },
  });

  if (profile.tier !== 'pro' && profile.tier !== 'builder') {
    return (
      <Text size="sm" c="dimmed">
        The overage cap is for the Pro and Builder plans, which charge for clicks past their monthly number.{' '}
        {profile.tier === 'free'
          ? 'The Free plan never charges: past its monthly clicks a grace period of up to 7 days starts, then recording pauses until next month.'
          : `The ${tierLabel(profile.tier)} plan has no overage charge to cap.`}
      </Text>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amount = typeof value === 'number' ? value : Number.parseFloat(value);
    if (!Number.isFinite(amount)) {
      setMissing(true);
      return;
    }
    setMissing(false);
    save.mutate(Math.round(amount * 100));
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Overage cap">
      <Stack gap="xs">
        {isFormError(save.error, FIELD_CODES) && <ErrorNotice error={save.error} title="The cap was not saved" />}
        <NumberInput
          label="Monthly overage cap in US dollars"
          description={`Now: ${capCents ? `${dollars(capCents)} a month` : 'no cap'}. Enter 0 for no cap.`}
          min={0}
          max={21_474_836}
          decimalScale={2}
          fixedDecimalScale
          prefix="$"
          thousandSeparator=","
          allowNegative={false}
          value={value}
          onChange={setValue}
          error={missing ? 'Enter an amount in dollars, or 0 for no cap' : fieldError(save.error, FIELD_CODES)}
          maw={340}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save cap
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          When this month's overage reaches the cap, click recording pauses; links keep redirecting.
        </Text>
      </Stack>
    </form>
  );
}
