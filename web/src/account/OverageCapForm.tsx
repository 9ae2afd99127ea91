import { Button, Group, NumberInput, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip, type ApiErrorCode } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import type { PlanLimits } from '../plan';
import { dollars } from './plan-format';
import { USAGE_KEY } from './usage';

const FIELD_CODES: ApiErrorCode[] = ['INVALID_LIMIT_CENTS', 'MISSING_LIMIT_CENTS'];

type Choice = 'none' | 'cap';

/** The cap in force, in words; `capCents` is the usage answer's (null: no cap). */
const capInWords = (capCents: number | null): string => (capCents ? `${dollars(capCents)} a month` : 'no cap set');

/** For plans that never charge for overage: why there is nothing to cap, from the plan's own limits. */
function NothingToCap({ limits }: { limits: PlanLimits }) {
  return (
    <Text size="sm">
      {limits.trackedClicksPerMonth === null
        ? 'Your plan has no monthly number of tracked clicks, so there is no overage to cap.'
        : 'Your plan does not charge for clicks past its monthly number: past it, a grace period of up to 7 days starts, then recording pauses until next month. There is no overage to cap.'}
    </Text>
  );
}

/**
 * The monthly cap on what clicks past the plan's number may cost. "No cap" is a choice of its own: the API takes
 * `limitCents` 0 for it, which a person typing 0 would read as "no overage" (the opposite). A cap is an amount in
 * dollars above zero; the API takes cents.
 */
export function OverageCapForm({ limits, capCents }: { limits: PlanLimits; capCents: number | null }) {
  const queries = useQueryClient();
  const [choice, setChoice] = useState<Choice>(capCents ? 'cap' : 'none');
  const [amount, setAmount] = useState<number | string>(capCents ? capCents / 100 : '');
  const [invalid, setInvalid] = useState(false);
  const save = useMutation({
    mutationFn: (limitCents: number) => snip.post('/api/subscription/overage-limit', { body: { limitCents } }),
    onSuccess: async (answer) => {
      await queries.invalidateQueries({ queryKey: USAGE_KEY });
      notifications.show({ color: 'teal', message: answer.limitCents === 0 ? 'No overage cap set: overage is charged without a limit' : `Overage cap set to ${dollars(answer.limitCents)} a month` });
    },
  });

  if (limits.overageCentsPer1000 === null) return <NothingToCap limits={limits} />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice === 'none') {
      setInvalid(false);
      save.mutate(0);
      return;
    }
    const cents = Math.round((typeof amount === 'number' ? amount : Number.parseFloat(amount)) * 100);
    if (!Number.isFinite(cents) || cents <= 0) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    save.mutate(cents);
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Overage cap">
      <Stack gap="xs">
        {isFormError(save.error, FIELD_CODES) && <ErrorNotice error={save.error} title="The cap was not saved" />}
        <Radio.Group
          label="Monthly overage cap"
          description={`Now: ${capInWords(capCents)}.`}
          value={choice}
          onChange={(value) => {
            setChoice(value);
            setInvalid(false);
          }}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="none" label="No cap" description="Overage is charged for every click past the monthly number." />
            <Radio value="cap" label="Cap at" description="When this month's overage reaches the amount, click recording pauses; links keep redirecting." />
          </Stack>
        </Radio.Group>
        {choice === 'cap' && (
          <NumberInput
            label="Cap in US dollars a month"
            description="More than $0.00"
            decimalScale={2}
            max={21_474_836}
            prefix="$"
            thousandSeparator=","
            allowNegative={false}
            value={amount}
            onChange={setAmount}
            error={invalid ? 'Enter an amount above $0.00, or choose No cap' : fieldError(save.error, FIELD_CODES)}
            maw={340}
            ml={{ base: 0, xs: 'xl' }}
          />
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save cap
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
