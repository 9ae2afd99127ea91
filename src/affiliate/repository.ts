import type { Kysely, Selectable, Updateable } from 'kysely';
import type { AffiliateConversionsTable, AffiliatePaidClicksTable, AffiliatePartnershipsTable, AffiliateProgramsTable, Database } from '../db/schema.js';

export type ProgramRow = Selectable<AffiliateProgramsTable>;
export type PartnershipRow = Selectable<AffiliatePartnershipsTable>;
export type ConversionRow = Selectable<AffiliateConversionsTable>;
export type PaidClickRow = Selectable<AffiliatePaidClicksTable>;

/**
 * A tracked visit of a link by a visitor address (the first of its day in a click batch), as src/clicks' batch
 * writer hands it over; stated here, so that this repository depends on no other capability.
 */
export interface AddressVisit {
  link_id: string;
  day: string;
  address: string;
  at: string;
}
export type ProgramPatch = Updateable<Pick<AffiliateProgramsTable, 'name' | 'public' | 'status' | 'updated_at'>>;

/** A partnership with what a partner or an owner is shown of it: the program and the partner link. */
export type PartnershipView = PartnershipRow & {
  program_name: string;
  commission_type: string;
  commission_cents: number;
  partner_email: string;
  code: string | null;
  namespace: string | null;
  slug: string | null;
  domain: string | null;
};

export interface Tally {
  clicks: number;
  conversions: number;
  commissionCents: number;
}

const num = (value: unknown) => Number(value ?? 0);
const CHUNK = 200;
/** Link ids asked about per statement: a busy batch names thousands of links, nearly none of them partner links. */
const LINKS_PER_QUERY = 500;

export class AffiliateRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertProgram(row: ProgramRow): Promise<void> {
    await this.db.insertInto('affiliate_programs').values(row).execute();
  }

  findProgram(id: string): Promise<ProgramRow | undefined> {
    return this.db.selectFrom('affiliate_programs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  updateProgram(accountId: string, id: string, patch: ProgramPatch): Promise<ProgramRow | undefined> {
    return this.db.updateTable('affiliate_programs').set(patch).where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
  }

  listPrograms(accountId: string): Promise<ProgramRow[]> {
    return this.db.selectFrom('affiliate_programs').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  }

  /** Public, active programs of other accounts, newest first. */
  discover(exceptAccountId: string, limit: number, offset: number): Promise<ProgramRow[]> {
    return this.db
      .selectFrom('affiliate_programs')
      .selectAll()
      .where('public', '=', 1)
      .where('status', '=', 'active')
      .where('account_id', '!=', exceptAccountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Partner counts per program. */
  async partnerCounts(programIds: string[]): Promise<Map<string, number>> {
    if (programIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('affiliate_partnerships')
      .select('program_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('program_id', 'in', programIds)
      .groupBy('program_id')
      .execute();
    return new Map(rows.map((r) => [r.program_id, num(r.n)]));
  }

  async insertPartnership(row: PartnershipRow): Promise<void> {
    await this.db.insertInto('affiliate_partnerships').values(row).execute();
  }

  async setPartnershipLink(id: string, linkId: string): Promise<void> {
    await this.db.updateTable('affiliate_partnerships').set({ link_id: linkId }).where('id', '=', id).execute();
  }

  async deletePartnership(id: string): Promise<void> {
    await this.db.deleteFrom('affiliate_partnerships').where('id', '=', id).execute();
  }

  findPartnershipById(id: string): Promise<PartnershipRow | undefined> {
    return this.db.selectFrom('affiliate_partnerships').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findPartnership(programId: string, accountId: string): Promise<PartnershipView | undefined> {
    return this.views().where('affiliate_partnerships.program_id', '=', programId).where('affiliate_partnerships.account_id', '=', accountId).executeTakeFirst();
  }

  partnersOf(programId: string): Promise<PartnershipView[]> {
    return this.views().where('affiliate_partnerships.program_id', '=', programId).orderBy('affiliate_partnerships.created_at').orderBy('affiliate_partnerships.id').execute();
  }

  partnershipsOf(accountId: string): Promise<PartnershipView[]> {
    return this.views().where('affiliate_partnerships.account_id', '=', accountId).orderBy('affiliate_partnerships.created_at').orderBy('affiliate_partnerships.id').execute();
  }

  /** The commission model of an active program a partner link belongs to (the redirect's question), or null. */
  async activeCommissionType(partnershipId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('affiliate_partnerships')
      .innerJoin('affiliate_programs', 'affiliate_programs.id', 'affiliate_partnerships.program_id')
      .select(['affiliate_programs.commission_type', 'affiliate_programs.status'])
      .where('affiliate_partnerships.id', '=', partnershipId)
      .executeTakeFirst();
    return row && row.status === 'active' ? row.commission_type : null;
  }

  /**
   * Tracked clicks of partner links, per partnership: the daily `total` rollups, which count exactly the clicks
   * the tracked-click allowance recorded (never bots, HEAD requests, agents or clicks while analytics were paused).
   */
  async clicksOf(partnerships: Pick<PartnershipRow, 'id' | 'link_id'>[]): Promise<Map<string, number>> {
    const byLink = new Map(partnerships.filter((p) => p.link_id !== null).map((p) => [p.link_id!, p.id]));
    if (byLink.size === 0) return new Map();
    const rows = await this.db
      .selectFrom('click_rollups')
      .select('link_id')
      .select((eb) => eb.fn.sum<number | string>('clicks').as('n'))
      .where('link_id', 'in', [...byLink.keys()])
      .where('dimension', '=', 'total')
      .groupBy('link_id')
      .execute();
    return new Map(rows.map((r) => [byLink.get(r.link_id)!, num(r.n)]));
  }

  /**
   * Records, in a click batch's transaction, the visits of CPC partner links that earn a commission: the primary key
   * (program, day, address) keeps the first per visitor address, program and day; every other is not paid.
   */
  async recordPaidClicks(trx: Kysely<Database>, visits: readonly AddressVisit[]): Promise<void> {
    if (visits.length === 0) return;
    const linkIds = [...new Set(visits.map((v) => v.link_id))];
    const partnerLinks = new Map<string, { partnership_id: string; program_id: string; account_id: string }>();
    for (let i = 0; i < linkIds.length; i += LINKS_PER_QUERY) {
      const rows = await trx
        .selectFrom('affiliate_partnerships')
        .innerJoin('affiliate_programs', 'affiliate_programs.id', 'affiliate_partnerships.program_id')
        .select(['affiliate_partnerships.id', 'affiliate_partnerships.link_id', 'affiliate_partnerships.program_id', 'affiliate_programs.account_id'])
        .where('affiliate_partnerships.link_id', 'in', linkIds.slice(i, i + LINKS_PER_QUERY))
        .where('affiliate_programs.commission_type', '=', 'CPC')
        .execute();
      for (const r of rows) partnerLinks.set(r.link_id!, { partnership_id: r.id, program_id: r.program_id, account_id: r.account_id });
    }
    if (partnerLinks.size === 0) return;
    const paid: PaidClickRow[] = visits.flatMap((v) => {
      const p = partnerLinks.get(v.link_id);
      return p ? [{ program_id: p.program_id, day: v.day, address: v.address, partnership_id: p.partnership_id, link_id: v.link_id, account_id: p.account_id, created_at: v.at }] : [];
    });
    for (let i = 0; i < paid.length; i += CHUNK) {
      await trx.insertInto('affiliate_paid_clicks').values(paid.slice(i, i + CHUNK)).onConflict((oc) => oc.columns(['program_id', 'day', 'address']).doNothing()).execute();
    }
  }

  /** Paid clicks per partnership. */
  async paidClicksOf(partnershipIds: string[]): Promise<Map<string, number>> {
    if (partnershipIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('affiliate_paid_clicks')
      .select('partnership_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('partnership_id', 'in', partnershipIds)
      .groupBy('partnership_id')
      .execute();
    return new Map(rows.map((r) => [r.partnership_id, num(r.n)]));
  }

  /** Paid clicks of a program, whichever partnerships they came through. */
  async programPaidClicks(programId: string): Promise<number> {
    const row = await this.db.selectFrom('affiliate_paid_clicks').select((eb) => eb.fn.countAll<number | string>().as('n')).where('program_id', '=', programId).executeTakeFirst();
    return num(row?.n);
  }

  /** Conversions and their commissions, per partnership. */
  async conversionsOf(partnershipIds: string[]): Promise<Map<string, { conversions: number; commissionCents: number; amountCents: number }>> {
    if (partnershipIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('affiliate_conversions')
      .select('partnership_id')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string>('commission_cents').as('commission'), eb.fn.sum<number | string>('amount_cents').as('amount')])
      .where('partnership_id', 'in', partnershipIds)
      .groupBy('partnership_id')
      .execute();
    return new Map(rows.map((r) => [r.partnership_id, { conversions: num(r.n), commissionCents: num(r.commission), amountCents: num(r.amount) }]));
  }

  /** Conversions of a program, whichever partnerships they came through (a partner who left still earned them). */
  async programConversions(programId: string): Promise<{ conversions: number; commissionCents: number; amountCents: number }> {
    const row = await this.db
      .selectFrom('affiliate_conversions')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string>('commission_cents').as('commission'), eb.fn.sum<number | string>('amount_cents').as('amount')])
      .where('program_id', '=', programId)
      .executeTakeFirst();
    return { conversions: num(row?.n), commissionCents: num(row?.commission), amountCents: num(row?.amount) };
  }

  /** False when the click id was converted before: the primary key decides, so two reports cannot both count. */
  async insertConversion(row: ConversionRow): Promise<boolean> {
    const result = await this.db.insertInto('affiliate_conversions').values(row).onConflict((oc) => oc.column('click_id').doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  private views() {
    return this.db
      .selectFrom('affiliate_partnerships')
      .innerJoin('affiliate_programs', 'affiliate_programs.id', 'affiliate_partnerships.program_id')
      .innerJoin('accounts', 'accounts.id', 'affiliate_partnerships.account_id')
      .leftJoin('links', 'links.id', 'affiliate_partnerships.link_id')
      .selectAll('affiliate_partnerships')
      .select([
        'affiliate_programs.name as program_name',
        'affiliate_programs.commission_type',
        'affiliate_programs.commission_cents',
        'accounts.email as partner_email',
        'links.code',
        'links.namespace',
        'links.slug',
        'links.domain',
      ]);
  }
}
