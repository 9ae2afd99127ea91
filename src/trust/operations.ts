import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/** The trust operations (src/access/operation.ts): Description B's public /api/link-scan/:short (routes.ts) and MCP bind them. */
export const TRUST_OPERATIONS = {
  /** Any link's score, anyone's: public over REST, so a link can be judged before it is followed. */
  score: operation({ id: 'getLinkScan', policy: POLICIES.public, errors: ['NOT_FOUND'] }),
};
