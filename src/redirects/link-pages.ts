import type { SocialPreview } from '../links/input.js';

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, head: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>${head}
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}
label{display:block;margin:1rem 0 .25rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
button{font:inherit;margin-top:1rem;padding:.4rem 1rem}.error{color:#a00000}@media(prefers-color-scheme:dark){body{background:#111;color:#eee}.error{color:#ff8a8a}}</style>
</head><body><main>${body}</main></body></html>`;

/**
 * The form of a password-protected link. It names nothing of the link (no destination, no title): the form posts to
 * the short URL itself, which answers the form again or the redirect.
 */
export function passwordPage(options: { wrong: boolean; waitSeconds: number }): string {
  const notice = options.waitSeconds > 0
    ? `<p class="error" role="alert">Too many wrong passwords. Try again in ${Math.ceil(options.waitSeconds / 60)} minutes.</p>`
    : options.wrong
      ? '<p class="error" role="alert">That password is not right. Try again.</p>'
      : '';
  return page(
    'Password required · Snip',
    '',
    `<h1>This link is protected</h1><p>Enter the password you were given to open it.</p>${notice}
<form method="post"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Open link</button></form>`,
  );
}

/** What link-preview bots see of a link with a social preview: its Open Graph and Twitter card tags. */
export function socialPage(preview: SocialPreview, shortUrl: string): string {
  const tags: [string, string | undefined][] = [
    ['og:title', preview.title],
    ['og:description', preview.description],
    ['og:image', preview.image],
    ['og:url', shortUrl],
    ['og:type', 'website'],
    ['twitter:card', preview.image ? 'summary_large_image' : 'summary'],
    ['twitter:title', preview.title],
    ['twitter:description', preview.description],
    ['twitter:image', preview.image],
  ];
  const head = tags
    .filter((t): t is [string, string] => t[1] !== undefined)
    .map(([name, content]) => `\n<meta ${name.startsWith('og:') ? 'property' : 'name'}="${name}" content="${escape(content)}">`)
    .join('');
  const title = preview.title ?? shortUrl;
  return page(title, `${preview.description ? `\n<meta name="description" content="${escape(preview.description)}">` : ''}${head}`, `<h1>${escape(title)}</h1>${preview.description ? `<p>${escape(preview.description)}</p>` : ''}`);
}

/** Link-preview bots that read Open Graph tags (each also an isbot bot, so never counted). */
const PREVIEW_BOTS = /Twitterbot|facebookexternalhit|Facebot|Slackbot-LinkExpanding|Slack-ImgProxy|LinkedInBot|Discordbot|WhatsApp|TelegramBot|Pinterestbot|redditbot|SkypeUriPreview|Iframely|Embedly|vkShare|Applebot/i;

export const isPreviewBot = (userAgent: string): boolean => PREVIEW_BOTS.test(userAgent);
