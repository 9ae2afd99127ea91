import type { Kysely, Selectable, Updateable } from 'kysely';
import type { AffiliateConversionsTable, AffiliatePartnershipsTable, AffiliateProgramsTable, Database } from '../db/schema.js';

export type ProgramRow = Selectable<AffiliateProgramsTable>;
export type PartnershipRow = Selectable<AffiliatePartnershipsTable>;
export type ConversionRow = Selectable<AffiliateConversionsTable>;
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
