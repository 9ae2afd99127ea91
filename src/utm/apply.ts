/**
 * How a UTM template changes a destination, with no other import: the dashboard's preview runs this very code, so it
 * shows exactly what the link will hold (`black%20friday`, never `black+friday`).
 */

/** The template fields and the query parameters they set, in the order they are added to a URL. */
export const UTM_FIELDS = [
  ['utmSource', 'utm_source'],
  ['utmMedium', 'utm_medium'],
  ['utmCampaign', 'utm_campaign'],
  ['utmTerm', 'utm_term'],
  ['utmContent', 'utm_content'],
] as const;

export type UtmField = (typeof UTM_FIELDS)[number][0];
export type UtmValues = Record<UtmField, string | null>;

const nameOfPair = (pair: string): string => {
  const raw = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/**
 * The URL with the template's parameters set: a parameter of the same name already there (every occurrence) is
 * replaced, every other parameter is kept exactly as written and in its place, the new ones follow in the
 * order source, medium, campaign, term, content; the fragment stays.
 */
export function applyUtm(url: URL, values: UtmValues): string {
  const set = UTM_FIELDS.flatMap(([field, param]) => (values[field] === null ? [] : [[param, values[field]] as const]));
  const names = new Set<string>(set.map(([param]) => param));
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !names.has(nameOfPair(pair)));
  const result = new URL(url.href);
  result.search = [...kept, ...set.map(([param, value]) => `${param}=${encodeURIComponent(value)}`)].join('&');
  return result.href;
}
