import { ActionIcon, Group, NativeSelect, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { CONDITION_TYPES, DEVICES, type ConditionType, type DraftCondition } from './draft';

const FIRST_VALUE: Record<ConditionType, string> = { device: 'ios', country: '', language: '', query: '', address: '' };

/** One condition of a rule: its type, then the input that type takes. Named "Condition n" as a group. */
export function ConditionRow({
  condition,
  index,
  canRemove,
  onChange,
  onRemove,
}: {
  condition: DraftCondition;
  index: number;
  canRemove: boolean;
  onChange: (condition: DraftCondition) => void;
  onRemove: () => void;
}) {
  const set = (fields: Partial<DraftCondition>) => onChange({ ...condition, ...fields });
  const name = `Condition ${index + 1}`;
  return (
    <Group role="group" aria-label={name} align="flex-end" gap="xs" wrap="wrap">
      <NativeSelect
        label={`${name}: type`}
        data={CONDITION_TYPES.map((t) => ({ value: t.value, label: t.label }))}
        value={condition.type}
        // A new type starts from its own empty value: "ios" is no country.
        onChange={(e) => set({ type: e.currentTarget.value as ConditionType, value: FIRST_VALUE[e.currentTarget.value as ConditionType], key: '' })}
        w={{ base: '100%', xs: 170 }}
      />
      {condition.type === 'device' && (
        <NativeSelect label="Device" data={[...DEVICES]} value={condition.value} onChange={(e) => set({ value: e.currentTarget.value })} style={{ flex: 1, minWidth: 140 }} />
      )}
      {condition.type === 'country' && (
        <TextInput label="Country code" description="ISO, like FR" maxLength={2} value={condition.value} onChange={(e) => set({ value: e.currentTarget.value })} style={{ flex: 1, minWidth: 120 }} />
      )}
      {condition.type === 'language' && (
        <TextInput label="Language" description="fr matches fr-CA too" value={condition.value} onChange={(e) => set({ value: e.currentTarget.value })} style={{ flex: 1, minWidth: 120 }} />
      )}
      {condition.type === 'address' && (
        <TextInput label="Address or range" placeholder="203.0.113.0/24" value={condition.value} onChange={(e) => set({ value: e.currentTarget.value })} style={{ flex: 1, minWidth: 160 }} />
      )}
      {condition.type === 'query' && (
        <>
          <TextInput label="Parameter" placeholder="utm_source" value={condition.key} onChange={(e) => set({ key: e.currentTarget.value })} style={{ flex: 1, minWidth: 120 }} />
          <TextInput label="Parameter value" description="Empty: any value" value={condition.value} onChange={(e) => set({ value: e.currentTarget.value })} style={{ flex: 1, minWidth: 120 }} />
        </>
      )}
      {/* A rule needs one condition at least: its last one is changed, not removed. */}
      <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove condition ${index + 1}`} disabled={!canRemove} onClick={onRemove}>
        <IconX size={16} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
