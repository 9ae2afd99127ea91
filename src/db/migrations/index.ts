import type { Migration } from 'kysely/migration';
import { accountsAndLinks } from './0001-accounts-and-links.js';
import { usageCounters } from './0002-usage-counters.js';
import { linkImportKeys } from './0003-link-import-keys.js';
import { clicks } from './0004-clicks.js';
import { webhooks } from './0005-webhooks.js';
import { foldersQrTrust } from './0006-folders-qr-trust.js';
import { domains } from './0007-domains.js';
import { tagsTemplatesViews } from './0008-tags-templates-views.js';
import { outboxEvents } from './0009-outbox-events.js';
import { domainClaimsNamespaceBounds } from './0010-domain-claims-namespace-bounds.js';
import { sessions } from './0011-sessions.js';
import { affiliateAgentsWeb2app } from './0012-affiliate-agents-web2app.js';
import { oauth } from './0013-oauth.js';
import { affiliatePaidClicks } from './0014-affiliate-paid-clicks.js';
import { linkRouting } from './0015-link-routing.js';
import { operators } from './0016-operators.js';
import { imports } from './0017-imports.js';

/** One ordered migration set for SQLite and PostgreSQL alike; names sort in the order they apply. */
export const migrations: Record<string, Migration> = {
  '0001-accounts-and-links': accountsAndLinks,
  '0002-usage-counters': usageCounters,
  '0003-link-import-keys': linkImportKeys,
  '0004-clicks': clicks,
  '0005-webhooks': webhooks,
  '0006-folders-qr-trust': foldersQrTrust,
  '0007-domains': domains,
  '0008-tags-templates-views': tagsTemplatesViews,
  '0009-outbox-events': outboxEvents,
  '0010-domain-claims-namespace-bounds': domainClaimsNamespaceBounds,
  '0011-sessions': sessions,
  '0012-affiliate-agents-web2app': affiliateAgentsWeb2app,
  '0013-oauth': oauth,
  '0014-affiliate-paid-clicks': affiliatePaidClicks,
  '0015-link-routing': linkRouting,
  '0016-operators': operators,
  '0017-imports': imports,
};
