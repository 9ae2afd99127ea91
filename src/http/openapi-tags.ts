/**
 * The document's table of contents: every tag an operation carries, in the order a reader meets them, with what the
 * group is for. Most groups exist over both descriptions, tagged `(A)` (paths under /api/v1, plus /api/stats and
 * /api/ns/stats) and `(B)` (the other paths under /api); the two differ in paths and shapes, not in what they do.
 */
interface Tag {
  readonly name: string;
  readonly description: string;
}

/** One group over the descriptions that have it. */
function group(name: string, description: string, dialects: readonly ('A' | 'B')[] = ['A', 'B']): Tag[] {
  return dialects.map((dialect) => ({ name: `${name} (${dialect})`, description: `${description} Description ${dialect}'s paths.` }));
}

export const OPENAPI_TAGS: readonly Tag[] = [
  ...group('links', 'Short links: create one or many, list, read, change and delete.'),
  { name: 'redirect', description: 'What a visitor of a short link gets: the redirect, or a page saying why not.' },
  ...group('statistics', 'Clicks of one link: the total, the latest clicks and aggregates over a period.', ['A']),
  ...group('analytics', "Clicks of the account and of each link over a period, and this billing cycle's tracked clicks.", ['B']),
  ...group('agent links', 'Links made over MCP by AI assistants, and clicks by people and by AI agents.'),
  ...group('export', "The caller's links, or a link's statistics, as CSV or JSON."),
  ...group('folders', 'Folders to file links in, one folder per link.'),
  ...group('tags', 'Free-form labels on links, at most 20 on each.'),
  ...group('saved views', 'Filters of the link list, saved under a name.'),
  ...group('utm templates', "Sets of utm_* parameters a new link's destination can be given."),
  ...group('webhooks', 'HTTPS endpoints told of link and click events, with signed payloads and a delivery log.'),
  { name: 'qr', description: 'QR code images of short links, for anyone.' },
  ...group('qr settings', "The account's default colours, size and margin for QR codes."),
  ...group('web2app', 'Deferred deep links: the visit of someone without the app, claimed by the app once installed.'),
  ...group('affiliate', 'Affiliate programs: an owner pays partners for the clicks and conversions of their partner links.'),
  ...group('domains', 'Custom domains for short links: add one, prove it by DNS, activate it.', ['B']),
  ...group('trust', "A link's trust score, from checks of its destination.", ['B']),
  ...group('account', "The caller's profile and plan limits, API keys and namespaces.", ['B']),
  ...group('subscription', 'Billing settings of the paid plans.', ['A']),
  ...group('connected applications', 'Applications (MCP clients) the account let in with OAuth.'),
  { name: 'admin', description: "The operator's Admin area: accounts, sign-ups and invites, abuse, the server's status and the audit log. Operators only." },
  { name: 'dashboard sessions', description: "The dashboard's sign-in with a password: a session cookie and its CSRF token." },
  { name: 'mcp', description: 'The Model Context Protocol endpoint, where AI assistants call Snip as tools.' },
  { name: 'oauth', description: 'OAuth 2.1 discovery for MCP clients: where to register, authorize and get tokens.' },
  { name: 'meta', description: 'The server itself: its home page and icon, health and readiness checks, and this document.' },
];
