import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/**
 * The operator's admin operations (issue 29): the dashboard's Admin area binds them over REST (routes.ts), the CLI
 * calls the same service methods. Operators only, over a session or a key made with the admin scope; never over MCP.
 */
export const ADMIN_OPERATIONS = {
  listAccounts: operation({ id: 'adminListAccounts', policy: POLICIES.operator, errors: [] }),
  setPlan: operation({ id: 'adminSetPlan', policy: POLICIES.operator, errors: ['ACCOUNT_NOT_FOUND', 'INVALID_TIER'] }),
  setRole: operation({ id: 'adminSetRole', policy: POLICIES.operator, errors: ['ACCOUNT_NOT_FOUND', 'INVALID_ROLE', 'OWN_ACCOUNT', 'LAST_OPERATOR'] }),
  disableAccount: operation({ id: 'adminDisableAccount', policy: POLICIES.operator, errors: ['ACCOUNT_NOT_FOUND', 'INVALID_REASON', 'OWN_ACCOUNT', 'LAST_OPERATOR'] }),
  enableAccount: operation({ id: 'adminEnableAccount', policy: POLICIES.operator, errors: ['ACCOUNT_NOT_FOUND'] }),
  passwordReset: operation({ id: 'adminPasswordReset', policy: POLICIES.operator, errors: ['ACCOUNT_NOT_FOUND', 'ACCOUNT_DISABLED'] }),
  deleteAccount: operation({ id: 'adminDeleteAccount', policy: POLICIES.operator, errors: ['ACCOUNT_NOT_FOUND', 'OWN_ACCOUNT'] }),
  getSignUps: operation({ id: 'adminGetSignUps', policy: POLICIES.operator, errors: [] }),
  setSignUps: operation({ id: 'adminSetSignUps', policy: POLICIES.operator, errors: ['INVALID_TIER'] }),
  createInvite: operation({ id: 'adminCreateInvite', policy: POLICIES.operator, errors: ['INVALID_TIER'] }),
  findLink: operation({ id: 'adminFindLink', policy: POLICIES.operator, errors: ['NOT_FOUND'] }),
  disableLink: operation({ id: 'adminDisableLink', policy: POLICIES.operator, errors: ['NOT_FOUND', 'INVALID_REASON'] }),
  enableLink: operation({ id: 'adminEnableLink', policy: POLICIES.operator, errors: ['NOT_FOUND'] }),
  status: operation({ id: 'adminStatus', policy: POLICIES.operator, errors: [] }),
  audit: operation({ id: 'adminAuditLog', policy: POLICIES.operator, errors: ['INVALID_CURSOR'] }),
};
