const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 60],
  ['hour', 60],
  ['day', 24],
  ['month', 30],
  ['year', 12],
];

/** "5 minutes ago", "yesterday", "just now": how long ago `iso` was, in the reader's language. */
export function timeAgo(iso: string, now = Date.now()): string {
  let amount = (now - Date.parse(iso)) / 1000;
  if (amount < 45) return 'just now';
  let unit: Intl.RelativeTimeFormatUnit = 'second';
  for (const [next, size] of STEPS) {
    if (amount < size) break;
    amount /= size;
    unit = next;
  }
  return relative.format(-Math.round(amount), unit);
}
