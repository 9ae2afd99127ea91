import { SCOPES, type Scope } from './scopes.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/**
 * The pages of the OAuth flow run no script. Their forms post to Snip, whose answer redirects to the application:
 * `form-action` is left out of their policy, since browsers apply it to that redirect too (any loopback port, any
 * app scheme).
 */
export const OAUTH_PAGE_POLICY = ["default-src 'none'", "style-src 'unsafe-inline'", "img-src 'self' data:", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');

const layout = (title: string, body: string, head = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">${head}<title>${escapeHtml(title)} · Snip</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:0 auto;padding:2rem 1rem;color:#1f2328}
h1{font-size:1.35rem;margin:0 0 1rem}label{display:block;font-weight:600;margin:.9rem 0 .3rem}
input[type=email],input[type=password]{box-sizing:border-box;width:100%;font:inherit;padding:.55rem .6rem;border:1px solid #8c959f;border-radius:6px}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #8c959f;background:#f6f8fa;color:#1f2328;cursor:pointer;min-height:44px}
button.primary{background:#0969da;border-color:#0969da;color:#fff}button:focus-visible,input:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.actions{display:flex;gap:.75rem;margin-top:1.5rem;flex-wrap:wrap}.error{color:#cf222e;font-weight:600}.quiet{color:#57606a;font-size:.9rem}
ul.scopes{padding-left:1.2rem}ul.scopes li{margin:.35rem 0}code{font-family:ui-monospace,monospace;font-size:.85em;background:#f6f8fa;padding:.05rem .3rem;border-radius:4px}
.client{word-break:break-word}button.link{background:none;border:0;padding:0;min-height:0;color:#0969da;text-decoration:underline;font-weight:400}
</style></head><body><main>${body}</main></body></html>`;

/** Sign-in for the OAuth flow: the dashboard's labels (Email, Password, Sign in), posting to Snip's own sign-in. */
export function signInPage(action: string, clientName: string, error: string | null, email = ''): string {
  return layout(
    'Sign in',
    `<h1>Sign in to Snip</h1>
<p><strong class="client">${escapeHtml(clientName)}</strong> wants to connect to your Snip account. Sign in first.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}" autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>`,
  );
}

export interface ConsentDetails {
  action: string;
  /** Where "Sign in with another account" posts: it signs this browser out, then shows the sign-in. */
  switchAction: string;
  csrfToken: string;
  clientName: string;
  clientUri: string | null;
  redirectTo: string;
  email: string;
  scopes: readonly Scope[];
}

/** What the application asks for, in words, with Allow and Deny; the application's own words are only its name. */
export function consentPage(details: ConsentDetails): string {
  const items = details.scopes.map((scope) => `<li>${escapeHtml(SCOPES[scope])} <code>${scope}</code></li>`).join('');
  const site = details.clientUri ? `<p class="quiet">Its site: ${escapeHtml(details.clientUri)}</p>` : '';
  return layout(
    'Allow access',
    `<h1>Allow <span class="client">${escapeHtml(details.clientName)}</span> to use your Snip account?</h1>
<p>Signed in as <strong>${escapeHtml(details.email)}</strong>. If you allow it, this application may:</p>
<ul class="scopes">${items}</ul>
${site}<p class="quiet">It registered itself with Snip; Snip has not checked who made it. After your answer you go back to ${escapeHtml(details.redirectTo)}. You can disconnect it at any time from the dashboard's account page.</p>
<form method="post" action="${escapeHtml(details.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(details.csrfToken)}">
<div class="actions"><button class="primary" type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></div>
</form>
<form method="post" action="${escapeHtml(details.switchAction)}"><input type="hidden" name="csrf" value="${escapeHtml(details.csrfToken)}">
<p class="quiet">Not ${escapeHtml(details.email)}? <button class="link" type="submit">Sign in with another account</button></p></form>`,
  );
}

/**
 * The dashboard's cookie is SameSite=Strict, so a browser sent here from another site (an assistant's web page)
 * leaves it out (`Sec-Fetch-Site: cross-site` says so); one navigation started by this page itself is same-site, and
 * brings it.
 */
export function sameSiteHopPage(url: string): string {
  return layout('Continue', `<h1>Continue to Snip</h1><p><a href="${escapeHtml(url)}">Continue</a></p>`, `<meta http-equiv="refresh" content="0;url=${escapeHtml(url)}">`);
}

/** The authorization server's error page (an unknown client, a bad redirect URI): what went wrong, never a stack. */
export function errorPage(error: string, description: string): string {
  return layout(
    'Cannot connect',
    `<h1>This application cannot connect</h1>
<p class="error">${escapeHtml(description || error)}</p>
<p class="quiet">Error code: <code>${escapeHtml(error)}</code>. Go back to the application and try connecting again.</p>`,
  );
}
