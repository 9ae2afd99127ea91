import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/** The connected-application operations (src/access/operation.ts): REST A and B and the dashboard's account page. */
export const OAUTH_OPERATIONS = {
  listConnections: operation({ id: 'listConnections', policy: POLICIES.ownAccount, errors: [] }),
  disconnect: operation({ id: 'deleteConnection', policy: POLICIES.ownAccount, errors: ['CONNECTION_NOT_FOUND'] }),
};
