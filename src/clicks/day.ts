let lastDay = { index: -1, text: '' };

/** `YYYY-MM-DD` in UTC; remembered, since a batch's visits (and a day's redirects) nearly always share one day. */
export function dayOf(ms: number): string {
  const index = Math.floor(ms / 86_400_000);
  if (index !== lastDay.index) lastDay = { index, text: new Date(ms).toISOString().slice(0, 10) };
  return lastDay.text;
}
