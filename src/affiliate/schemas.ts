import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, Pagination, StringEnum } from '../schema/shapes.js';
import { AMOUNT_MAX_CENTS, COMMISSION_MAX_CENTS, COMMISSION_TYPES, NAME_MAX, PROGRAM_STATUSES } from './rules.js';
import { named } from '../schema/names.js';

const CommissionType = StringEnum(COMMISSION_TYPES, { description: 'CPC: cents per paid click (a tracked click, at most one per visitor address per program per day); CPA: cents per reported conversion' });
const Cents = (description: string) => Type.Integer({ description });
const PAID_CLICKS = 'The clicks a CPC program pays for: at most one per visitor address (an IPv4 address or an IPv6 /64) per program per UTC day; 0 on a CPA program';

export const ProgramObject = named('AffiliateProgram', 'An affiliate program', Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Type.String({ description: 'The destination partner links lead to' }),
  commissionType: CommissionType,
  commissionCents: Cents('Commission per click (CPC) or per conversion (CPA), in US cents'),
  currency: Type.Literal('USD'),
  public: Type.Boolean({ description: 'Listed in discover and open to partners' }),
  status: StringEnum(PROGRAM_STATUSES, { description: 'active: takes partners and counts; closed: takes no new partners' }),
  own: Type.Boolean({ description: "True for the caller's own program" }),
  partners: Type.Integer({ description: 'Partners that joined' }),
  createdAt: DateTime(),
}));

export const ProgramList = Type.Object({ programs: Type.Array(ProgramObject) });
export const DiscoverList = Type.Object({ programs: Type.Array(ProgramObject), limit: Type.Integer(), offset: Type.Integer(), hasMore: Type.Boolean() });

export const CreateProgramBody = Type.Object({
  name: Type.String({ description: `1-${NAME_MAX} characters` }),
  url: Type.String({ format: 'uri', description: 'Destination URL (absolute http or https)' }),
  commissionType: CommissionType,
  commissionCents: Type.Integer({ minimum: 1, maximum: COMMISSION_MAX_CENTS, description: 'US cents per click (CPC) or per conversion (CPA)' }),
  public: Type.Optional(Type.Boolean({ description: 'Default true: listed in discover and open to partners' })),
});

export const UpdateProgramBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: `1-${NAME_MAX} characters` })),
    public: Type.Optional(Type.Boolean()),
    status: Type.Optional(StringEnum(PROGRAM_STATUSES, { description: 'closed: no new partners; existing partner links keep counting' })),
  },
  { additionalProperties: false },
);

const partnershipFields = {
  id: Type.String({ description: 'The partnership id' }),
  programId: Type.String(),
  shortCode: Nullable(Type.String({ description: "The partner link's code; null if the partner deleted it" })),
  shortUrl: Nullable(Type.String({ description: 'The partner link to share' })),
  clicks: Type.Integer({ description: 'Tracked clicks on the partner link' }),
  paidClicks: Type.Integer({ description: PAID_CLICKS }),
  conversions: Type.Integer(),
  earningsCents: Cents('Earned, in US cents'),
  createdAt: DateTime(),
};

export const PartnershipObject = named('AffiliatePartnership', "A partnership: a partner's place in a program, with its partner link", Type.Object({
  ...partnershipFields,
  programName: Type.String(),
  commissionType: CommissionType,
  commissionCents: Type.Integer(),
}));
export const PartnershipList = Type.Object({ partnerships: Type.Array(PartnershipObject) });
export const PartnerList = Type.Object({ programId: Type.String(), partners: Type.Array(Type.Object({ ...partnershipFields, partnerEmail: Type.String() })) });

export const StatsObject = Type.Object({
  programId: Type.String(),
  scope: StringEnum(['owner', 'partner'] as const, { description: 'owner: the whole program; partner: your partnership' }),
  commissionType: CommissionType,
  partners: Type.Integer(),
  clicks: Type.Integer({ description: 'Tracked clicks on partner links' }),
  paidClicks: Type.Integer({ description: PAID_CLICKS }),
  conversions: Type.Integer(),
  earningsCents: Cents('Partner earnings in US cents'),
  revenueCents: Cents('Sale amounts reported with conversions, in US cents'),
  currency: Type.Literal('USD'),
});

export const ConversionBody = Type.Object({
  clickId: Type.String({ maxLength: 200, description: 'The snip_cid the partner link added to your destination' }),
  amountCents: Type.Optional(Type.Integer({ minimum: 0, maximum: AMOUNT_MAX_CENTS, description: 'The sale amount, in US cents' })),
});
export const ConversionObject = Type.Object({
  clickId: Type.String(),
  programId: Type.String(),
  partnershipId: Type.String(),
  amountCents: Nullable(Type.Integer()),
  commissionCents: Cents('What this conversion earns the partner (0 on a CPC program)'),
  createdAt: DateTime(),
});

export const ProgramParams = Type.Object({ programId: Type.String() });
export const DiscoverQuery = Pagination;
