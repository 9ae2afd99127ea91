import { Box, Tooltip } from '@mantine/core';

/**
 * A link's last seven days of clicks as seven small bars (today last): a glance at whether it is still being used.
 * The bars are decoration; their sum is said in words to screen readers.
 */
export function Trend({ days }: { days: readonly number[] }) {
  const total = days.reduce((sum, n) => sum + n, 0);
  const peak = Math.max(1, ...days);
  const words = `${total} ${total === 1 ? 'click' : 'clicks'} in the last 7 days`;
  return (
    <Tooltip label={words} withArrow>
      <Box role="img" aria-label={words} style={{ display: 'flex', alignItems: 'flex-end', gap: 2, height: 18, width: 40 }}>
        {days.map((n, i) => (
          <Box
            key={i}
            style={{
              width: 4,
              height: `${Math.max(2, Math.round((n / peak) * 18))}px`,
              borderRadius: 1,
              background: n === 0 ? 'var(--mantine-color-default-border)' : 'var(--mantine-primary-color-filled)',
            }}
          />
        ))}
      </Box>
    </Tooltip>
  );
}
