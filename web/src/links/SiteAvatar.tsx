import { Avatar } from '@mantine/core';

// Shade 9 of each (the theme's primaryShade) carries white text at 4.5:1 or better.
const COLOURS = ['indigo', 'blue', 'cyan', 'teal', 'violet', 'grape', 'pink', 'red'] as const;

function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/**
 * The destination's site as a letter on a colour of its own, where other shorteners show the site's favicon: a
 * favicon is an image from the destination's server, which the dashboard's CSP (img-src 'self' data: blob:) keeps
 * out, and fetching it would tell that server who looks at the list. The same site always gets the same colour.
 */
export function SiteAvatar({ url }: { url: string }) {
  const site = siteOf(url);
  let hash = 0;
  for (const char of site) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (
    <Avatar size={28} radius="sm" variant="filled" color={COLOURS[hash % COLOURS.length]} aria-hidden title={site}>
      {(site.match(/[\p{L}\p{N}]/u)?.[0] ?? '?').toUpperCase()}
    </Avatar>
  );
}
