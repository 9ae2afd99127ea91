import { Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ConditionRow } from './ConditionRow';
import { MAX_CONDITIONS, MAX_RULES, newCondition, newRule, type DraftRule } from './draft';

type Move = { id: number; direction: 'up' | 'down' };

/** Ordered rules: the first whose conditions all match wins, so order is edited as carefully as content. */
export function RulesEditor({ rules, onChange }: { rules: DraftRule[]; onChange: (rules: DraftRule[]) => void }) {
  // React moves a rule's DOM node when it changes place, which drops keyboard focus: put it back on the same button.
  const [moved, setMoved] = useState<Move | null>(null);
  useEffect(() => {
    if (!moved) return;
    const wanted = document.getElementById(`rule-${moved.id}-move-${moved.direction}`) as HTMLButtonElement | null;
    const other = document.getElementById(`rule-${moved.id}-move-${moved.direction === 'up' ? 'down' : 'up'}`) as HTMLButtonElement | null;
    (wanted && !wanted.disabled ? wanted : other)?.focus();
  }, [moved]);

  const update = (id: number, change: (rule: DraftRule) => DraftRule) => onChange(rules.map((r) => (r.id === id ? change(r) : r)));
  const move = (index: number, direction: Move['direction']) => {
    const to = direction === 'up' ? index - 1 : index + 1;
    const next = [...rules];
    [next[index], next[to]] = [next[to]!, next[index]!];
    onChange(next);
    setMoved({ id: rules[index]!.id, direction });
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Rules are tried in order; the first whose conditions all match sends the visitor to its URL. No match: the A/B split, else the destination.
      </Text>
      {rules.map((rule, index) => (
        <Fieldset key={rule.id} legend={`Rule ${index + 1}`} variant="filled" p="sm">
          <Stack gap="xs">
            {rule.conditions.map((condition, j) => (
              <ConditionRow
                key={condition.id}
                condition={condition}
                index={j}
                canRemove={rule.conditions.length > 1}
                onChange={(c) => update(rule.id, (r) => ({ ...r, conditions: r.conditions.map((old) => (old.id === c.id ? c : old)) }))}
                onRemove={() => update(rule.id, (r) => ({ ...r, conditions: r.conditions.filter((old) => old.id !== condition.id) }))}
              />
            ))}
            <Group>
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconPlus size={14} aria-hidden />}
                disabled={rule.conditions.length >= MAX_CONDITIONS}
                onClick={() => update(rule.id, (r) => ({ ...r, conditions: [...r.conditions, newCondition()] }))}
              >
                Add condition
              </Button>
            </Group>
            <TextInput label="Destination URL" type="url" placeholder="https://" value={rule.url} onChange={(e) => update(rule.id, (r) => ({ ...r, url: e.currentTarget.value }))} />
            <Group gap="xs" wrap="wrap">
              <Button id={`rule-${rule.id}-move-up`} size="xs" variant="default" leftSection={<IconArrowUp size={14} aria-hidden />} disabled={index === 0} onClick={() => move(index, 'up')}>
                Move up
              </Button>
              <Button id={`rule-${rule.id}-move-down`} size="xs" variant="default" leftSection={<IconArrowDown size={14} aria-hidden />} disabled={index === rules.length - 1} onClick={() => move(index, 'down')}>
                Move down
              </Button>
              <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => onChange(rules.filter((r) => r.id !== rule.id))}>
                Remove rule
              </Button>
            </Group>
          </Stack>
        </Fieldset>
      ))}
      <Group>
        <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} disabled={rules.length >= MAX_RULES} onClick={() => onChange([...rules, newRule()])}>
          Add rule
        </Button>
      </Group>
    </Stack>
  );
}
