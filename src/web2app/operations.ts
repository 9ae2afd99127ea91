import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/** The web2app operations: REST A and B (routes.ts) and the MCP `get_web2app_session` tool bind them. */
export const WEB2APP_OPERATIONS = {
  /** The owner reads a session of one of its links: Pro and above, as app targets are. */
  get: operation({ id: 'getWeb2appSession', policy: { minTier: 'pro' }, errors: ['WEB2APP_SESSION_NOT_FOUND'] }),
  /** The installed app claims its session: no key, the unguessable id is the secret. */
  claim: operation({ id: 'claimWeb2appSession', policy: POLICIES.public, errors: ['WEB2APP_SESSION_NOT_FOUND', 'WEB2APP_SESSION_CLAIMED'] }),
};
