import { Type } from '@sinclair/typebox';
import { args, tool } from '../tool.js';
import { ACCOUNT_OPERATIONS } from '../../accounts/operations.js';
import { TRUST_OPERATIONS } from '../../trust/operations.js';
import { NamespaceClaimed, Profile } from '../../accounts/routes-b.js';
import { TrustScoreBody } from '../../trust/routes.js';

export const accountTools = [
  tool({
    name: 'get_profile',
    title: 'Your profile',
    scope: 'account:read',
    description: 'Your account: email, plan, namespace and every plan limit.',
    operation: ACCOUNT_OPERATIONS.getUser,
    input: {},
    output: Profile,
    run: async (_args, { core, caller }) => core.accounts.profile(caller.accountId),
  }),
  tool({
    name: 'get_link_trust_score',
    title: 'Trust score of a link',
    scope: 'links:read',
    description: 'The public trust score of any short link: 0-100, safe / warning / unsafe, and the threats found.',
    operation: TRUST_OPERATIONS.score,
    input: { shortPath: args.shortPath },
    output: TrustScoreBody,
    run: async ({ shortPath }, { core }) => core.trust.score(shortPath),
  }),
  tool({
    name: 'set_namespace',
    title: 'Claim a namespace',
    scope: 'account:write',
    description: 'Claim a namespace: the prefix of your custom-slug links, <namespace>/<slug> (Pro and above).',
    operation: ACCOUNT_OPERATIONS.claimNamespace,
    input: { namespace: Type.String({ description: '3-30 characters: a-z, 0-9, inner hyphens' }) },
    output: NamespaceClaimed,
    // It makes the namespace current; the ones held before stay held, and their links keep working.
    hints: { destructiveHint: false },
    run: async ({ namespace }, { core, caller }) => core.accounts.claimNamespace(caller.accountId, namespace),
  }),
];
