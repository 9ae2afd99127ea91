import { Type } from '@sinclair/typebox';
import { args, tool } from '../tool.js';
import { ACCOUNT_OPERATIONS } from '../../accounts/operations.js';
import { TRUST_OPERATIONS } from '../../trust/operations.js';

export const accountTools = [
  tool({
    name: 'get_profile',
    scope: 'account:read',
    description: 'Your account: email, plan, namespace and every plan limit.',
    operation: ACCOUNT_OPERATIONS.getUser,
    input: {},
    run: async (_args, { core, caller }) => core.accounts.profile(caller.accountId),
  }),
  tool({
    name: 'get_link_trust_score',
    scope: 'links:read',
    description: 'The public trust score of any short link: 0-100, safe / warning / unsafe, and the threats found.',
    operation: TRUST_OPERATIONS.score,
    input: { shortPath: args.shortPath },
    run: async ({ shortPath }, { core }) => core.trust.score(shortPath),
  }),
  tool({
    name: 'set_namespace',
    scope: 'account:write',
    description: 'Claim a namespace: the prefix of your custom-slug links, <namespace>/<slug> (Pro and above).',
    operation: ACCOUNT_OPERATIONS.claimNamespace,
    input: { namespace: Type.String({ description: '3-30 characters: a-z, 0-9, inner hyphens' }) },
    run: async ({ namespace }, { core, caller }) => core.accounts.claimNamespace(caller.accountId, namespace),
  }),
];
