import { ActionIcon, Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { MAX_VARIANTS, newVariant, variantTotal, type DraftVariant } from './draft';

/** An A/B split of the destination: 2 to 4 URLs whose weights add up to 100%. */
export function VariantsEditor({ variants, onChange }: { variants: DraftVariant[]; onChange: (variants: DraftVariant[]) => void }) {
  const total = variantTotal(variants);
  const update = (id: number, fields: Partial<DraftVariant>) => onChange(variants.map((v) => (v.id === id ? { ...v, ...fields } : v)));
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Visitors no rule sends elsewhere are split between these URLs by weight; each visitor keeps its variant. None: all go to the destination.
      </Text>
      {variants.map((variant, index) => (
        <Group key={variant.id} role="group" aria-label={`Variant ${index + 1}`} align="flex-end" gap="xs" wrap="wrap">
          <TextInput label={`Variant ${index + 1} URL`} type="url" placeholder="https://" value={variant.url} onChange={(e) => update(variant.id, { url: e.currentTarget.value })} style={{ flex: 1, minWidth: 200 }} />
          <NumberInput
            label={`Variant ${index + 1} weight`}
            suffix="%"
            min={1}
            max={100}
            allowDecimal={false}
            allowNegative={false}
            value={variant.weight}
            onChange={(value) => update(variant.id, { weight: typeof value === 'number' ? value : '' })}
            w={150}
          />
          <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove variant ${index + 1}`} onClick={() => onChange(variants.filter((v) => v.id !== variant.id))}>
            <IconX size={16} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <Group justify="space-between" wrap="wrap">
        <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} disabled={variants.length >= MAX_VARIANTS} onClick={() => onChange([...variants, newVariant()])}>
          Add variant
        </Button>
        {variants.length > 0 && (
          <Text size="sm" fw={600} c={total === 100 ? 'teal' : 'red'} aria-live="polite" data-testid="variant-total">
            Total: {total}%{total === 100 ? '' : ' (must be 100%)'}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
