import { Type } from '@sinclair/typebox';
import { AFFILIATE_OPERATIONS as ops } from '../../affiliate/operations.js';
import { COMMISSION_MAX_CENTS, COMMISSION_TYPES } from '../../affiliate/rules.js';
import { DiscoverList, PartnerList, PartnershipList, PartnershipObject, ProgramList, ProgramObject, StatsObject } from '../../affiliate/schemas.js';
import { args, tool } from '../tool.js';

const programId = Type.String({ description: 'The affiliate program id' });

export const affiliateTools = [
  tool({
    name: 'create_affiliate_program',
    title: 'Create an affiliate program',
    scope: 'affiliate:write',
    description: 'Create an affiliate program (Builder plan and above): partners share links to your URL and earn per paid click (CPC: a tracked click, at most one per visitor address per program per day) or per conversion you report (CPA).',
    operation: ops.create,
    input: {
      name: Type.String({ description: 'Program name, 1-100 characters' }),
      url: Type.String({ description: 'The destination partner links lead to (http or https)' }),
      commissionType: args.oneOf(COMMISSION_TYPES, 'CPC: cents per paid click (at most one per visitor address per program per day); CPA: cents per reported conversion'),
      commissionCents: Type.Integer({ minimum: 1, maximum: COMMISSION_MAX_CENTS, description: 'Commission in US cents' }),
      public: Type.Optional(Type.Boolean({ description: 'Listed for partners to discover and join (default true)' })),
    },
    output: ProgramObject,
    run: async (input, { core, caller }) => core.affiliate.create(caller, input),
  }),
  tool({
    name: 'list_affiliate_programs',
    title: 'List your affiliate programs',
    scope: 'affiliate:read',
    description: 'Your own affiliate programs, with their partner counts.',
    operation: ops.list,
    input: {},
    output: ProgramList,
    run: async (_args, { core, caller }) => core.affiliate.listOwn(caller),
  }),
  tool({
    name: 'discover_affiliate_programs',
    title: 'Discover affiliate programs',
    scope: 'affiliate:read',
    description: 'Public, active affiliate programs of other accounts that you can join.',
    operation: ops.discover,
    input: { limit: args.limit, offset: args.offset },
    output: DiscoverList,
    run: async ({ limit, offset }, { core, caller }) => core.affiliate.discover(caller, { limit: limit ?? 20, offset: offset ?? 0 }),
  }),
  tool({
    name: 'join_affiliate_program',
    title: 'Join an affiliate program',
    scope: 'affiliate:write',
    description: 'Join an affiliate program (paying plans): you get a partner link of your own to share.',
    operation: ops.join,
    input: { programId },
    output: PartnershipObject,
    run: async ({ programId: id }, { core, caller }) => core.affiliate.join(caller, id),
  }),
  tool({
    name: 'list_affiliate_partners',
    title: 'List affiliate partners',
    scope: 'affiliate:read',
    description: 'The partners of one of your programs, each with its clicks, conversions and earnings.',
    operation: ops.partners,
    input: { programId },
    output: PartnerList,
    run: async ({ programId: id }, { core, caller }) => core.affiliate.partners(caller, id),
  }),
  tool({
    name: 'list_affiliate_partnerships',
    title: 'List your affiliate partnerships',
    scope: 'affiliate:read',
    description: 'The programs you joined, with your partner links and earnings.',
    operation: ops.partnerships,
    input: {},
    output: PartnershipList,
    run: async (_args, { core, caller }) => core.affiliate.listPartnerships(caller),
  }),
  tool({
    name: 'get_affiliate_stats',
    title: 'Affiliate statistics',
    scope: 'affiliate:read',
    description: "Clicks, conversions and earnings in cents: the whole program's if it is yours, your partnership's if you joined it.",
    operation: ops.stats,
    input: { programId },
    output: StatsObject,
    run: async ({ programId: id }, { core, caller }) => core.affiliate.stats(caller, id),
  }),
];
