/**
 * What an application connected by OAuth may do, by area and in two strengths: `:write` includes `:read`. Each MCP
 * tool names the one scope it needs (src/mcp/tools/); an API key holds every scope, as it always has.
 */
export const SCOPES = {
  'links:read': 'See your short links, folders, tags, UTM templates, saved views and QR codes',
  'links:write': 'Create, change and delete your short links, folders, tags, UTM templates, saved views and QR settings',
  'analytics:read': 'See the click statistics of your links, and export them',
  'domains:read': 'See your custom domains',
  'domains:write': 'Add, verify, change and remove your custom domains',
  'webhooks:read': 'See your webhooks',
  'webhooks:write': 'Create, change, test and delete your webhooks',
  'affiliate:read': 'See affiliate programs, partners and their statistics',
  'affiliate:write': 'Create affiliate programs and join them',
  'account:read': 'See your profile, plan and usage',
  'account:write': 'Claim and release your namespace',
} as const;

export type Scope = keyof typeof SCOPES;

export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

export const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);

/** True when the granted scopes allow `needed`: the scope itself, or the `:write` of a `:read`. */
export function scopeCovers(granted: ReadonlySet<string>, needed: Scope): boolean {
  return granted.has(needed) || (needed.endsWith(':read') && granted.has(needed.replace(/:read$/, ':write')));
}

/** The known scopes of a space-separated scope string, in catalogue order (unknown words are dropped). */
export function parseScopes(text: string | undefined): Scope[] {
  const words = new Set((text ?? '').split(' '));
  return SCOPE_NAMES.filter((scope) => words.has(scope));
}
