import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import { isUniqueViolation } from '../db/database.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import type { Link } from '../links/link.js';
import type { ClickIds } from './click-ids.js';
import type { PartnershipView, ProgramRow } from './repository.js';
import { AffiliateRepository } from './repository.js';
import {
  AMOUNT_MAX_CENTS, checkBoolean, checkCents, checkCommissionType, checkProgramName, checkProgramUrl, checkStatus, COMMISSION_MAX_CENTS,
  type CommissionType, type ProgramInput, type ProgramStatus,
} from './rules.js';

export interface Program {
  id: string;
  name: string;
  url: string;
  commissionType: CommissionType;
  commissionCents: number;
  currency: 'USD';
  public: boolean;
  status: ProgramStatus;
  /** True when the caller owns it. */
  own: boolean;
  partners: number;
  createdAt: string;
}

export interface Partnership {
  id: string;
  programId: string;
  programName: string;
  commissionType: CommissionType;
  commissionCents: number;
  shortCode: string | null;
  shortUrl: string | null;
  clicks: number;
  /** The clicks that earn a CPC commission (see `AffiliateService`); 0 on a CPA program. */
  paidClicks: number;
  conversions: number;
  earningsCents: number;
  createdAt: string;
}

export interface Partner extends Omit<Partnership, 'programName' | 'commissionType' | 'commissionCents'> {
  partnerEmail: string;
}

export interface AffiliateStats {
  programId: string;
  /** `owner`: the whole program; `partner`: the caller's own partnership in it. */
  scope: 'owner' | 'partner';
  commissionType: CommissionType;
  partners: number;
  clicks: number;
  paidClicks: number;
  conversions: number;
  /** What the partners earned (owner) or the caller earned (partner), in US cents. */
  earningsCents: number;
  /** Sum of the sale amounts reported with conversions, in US cents. */
  revenueCents: number;
  currency: 'USD';
}

export interface Conversion {
  clickId: string;
  programId: string;
  partnershipId: string;
  amountCents: number | null;
  commissionCents: number;
  createdAt: string;
}

/** What programs need of links: the partner link, made as the partner's own link, and its short URL. */
export interface AffiliateLinks {
  createPartnerLink(caller: Caller, url: string, partnershipId: string): Promise<Link>;
  shortUrl(link: { code: string; namespace: string | null; slug: string | null; domain: string | null }): string;
}

const earningsOf = (type: CommissionType, cents: number, paidClicks: number, conversionCommission: number) =>
  type === 'CPC' ? paidClicks * cents : conversionCommission;

/**
 * Affiliate programs: an owner (Builder and above) pays partners per paid click (CPC) or per reported
 * conversion (CPA) on a destination; a partner (any paying plan) joins and gets a partner link of its own.
 * Clicks are the partner links' tracked clicks; a CPC program pays for at most one of them per visitor address
 * per program per UTC day (`paidClicks`, recorded with the click batches: src/clicks/visitor-hash.ts says what an
 * address is), so a partner clicking its own link, with any user agent, earns once a day per address it owns.
 * Conversions are reported by the owner with a click id the redirect minted (`snip_cid`), each at most once.
 */
export class AffiliateService {
  constructor(
    private readonly repo: AffiliateRepository,
    private readonly links: AffiliateLinks,
    private readonly clickIds: ClickIds,
    private readonly ownHostnames: ReadonlySet<string>,
    /** Clicks counted off the redirect path; statistics wait for them, so a caller sees its own clicks. */
    private readonly pendingClicks: { settle(): Promise<void> },
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, input: ProgramInput): Promise<Program> {
    const name = checkProgramName(input.name);
    const url = checkProgramUrl(input.url, this.ownHostnames);
    const commissionType = checkCommissionType(input.commissionType);
    const commissionCents = checkCents(input.commissionCents, 'commissionCents', 1, COMMISSION_MAX_CENTS);
    const isPublic = input.public === undefined ? true : checkBoolean(input.public, 'public');
    const now = this.clock.now().toISOString();
    const row: ProgramRow = {
      id: newId('afp'),
      account_id: caller.accountId,
      name,
      url,
      commission_type: commissionType,
      commission_cents: commissionCents,
      currency: 'USD',
      public: isPublic ? 1 : 0,
      status: 'active',
      created_at: now,
      updated_at: now,
    };
    await this.repo.insertProgram(row);
    return presentProgram(row, caller, 0);
  }

  /** Renames, opens or closes a program, or makes it public or private; the commission terms never change. */
  async update(caller: Caller, programId: string, input: ProgramInput): Promise<Program> {
    if (input.name === undefined && input.public === undefined && input.status === undefined) throw errors.invalidBody('Give name, public or status to change');
    const patch = {
      ...(input.name !== undefined ? { name: checkProgramName(input.name) } : {}),
      ...(input.public !== undefined ? { public: checkBoolean(input.public, 'public') ? 1 : 0 } : {}),
      ...(input.status !== undefined ? { status: checkStatus(input.status) } : {}),
      updated_at: this.clock.now().toISOString(),
    };
    const row = await this.repo.updateProgram(caller.accountId, programId, patch);
    if (!row) throw errors.affiliateProgramNotFound();
    if (input.status !== undefined) this.bus.emit('affiliate.program_updated', { programId });
    return presentProgram(row, caller, (await this.repo.partnerCounts([row.id])).get(row.id) ?? 0);
  }

  async listOwn(caller: Caller): Promise<{ programs: Program[] }> {
    return { programs: await this.present(await this.repo.listPrograms(caller.accountId), caller) };
  }

  async discover(caller: Caller, page: { limit: number; offset: number }): Promise<{ programs: Program[]; limit: number; offset: number; hasMore: boolean }> {
    const rows = await this.repo.discover(caller.accountId, page.limit + 1, page.offset);
    return { programs: await this.present(rows.slice(0, page.limit), caller), limit: page.limit, offset: page.offset, hasMore: rows.length > page.limit };
  }

  /**
   * Joins a program: the partnership is written first, so a second join (even a concurrent one) is refused by the
   * unique index before any link is made; if the partner link cannot be made (the daily link limit), the
   * partnership is taken back and nothing is left half-done.
   */
  async join(caller: Caller, programId: string): Promise<Partnership> {
    const program = await this.repo.findProgram(programId);
    if (!program) throw errors.affiliateProgramNotFound();
    if (program.account_id === caller.accountId) throw errors.ownProgram();
    if (program.status !== 'active') throw errors.programClosed();
    if (program.public !== 1) throw errors.programPrivate();
    const id = newId('prt');
    try {
      await this.repo.insertPartnership({ id, program_id: program.id, account_id: caller.accountId, program_account_id: program.account_id, link_id: null, created_at: this.clock.now().toISOString() });
    } catch (error) {
      if (isUniqueViolation(error)) throw errors.alreadyJoined();
      throw error;
    }
    let link: Link;
    try {
      link = await this.links.createPartnerLink(caller, program.url, id);
    } catch (error) {
      await this.repo.deletePartnership(id);
      throw error;
    }
    await this.repo.setPartnershipLink(id, link.id);
    const view = await this.repo.findPartnership(program.id, caller.accountId);
    return (await this.partnerships([view!]))[0]!;
  }

  /** The partners of one of the caller's programs, each with its clicks, conversions and earnings. */
  async partners(caller: Caller, programId: string): Promise<{ programId: string; partners: Partner[] }> {
    await this.ownProgram(caller, programId);
    const views = await this.repo.partnersOf(programId);
    const partners = (await this.partnerships(views)).map(({ programName: _n, commissionType: _t, commissionCents: _c, ...rest }, i) => ({
      ...rest,
      partnerEmail: views[i]!.partner_email,
    }));
    return { programId, partners };
  }

  async listPartnerships(caller: Caller): Promise<{ partnerships: Partnership[] }> {
    return { partnerships: await this.partnerships(await this.repo.partnershipsOf(caller.accountId)) };
  }

  /** For the owner: the whole program; for a partner: its own partnership; for anyone else: not found. */
  async stats(caller: Caller, programId: string): Promise<AffiliateStats> {
    const program = await this.repo.findProgram(programId);
    if (!program) throw errors.affiliateProgramNotFound();
    await this.pendingClicks.settle();
    const type = program.commission_type as CommissionType;
    const base = { programId, commissionType: type, currency: 'USD' as const };
    if (program.account_id === caller.accountId) {
      const all = await this.repo.partnersOf(programId);
      const clicks = sum((await this.repo.clicksOf(all)).values());
      const paidClicks = await this.repo.programPaidClicks(programId);
      const conv = await this.repo.programConversions(programId);
      return {
        ...base,
        scope: 'owner',
        partners: all.length,
        clicks,
        paidClicks,
        conversions: conv.conversions,
        earningsCents: earningsOf(type, program.commission_cents, paidClicks, conv.commissionCents),
        revenueCents: conv.amountCents,
      };
    }
    const own = await this.repo.findPartnership(programId, caller.accountId);
    if (!own) throw errors.affiliateProgramNotFound();
    const clicks = (await this.repo.clicksOf([own])).get(own.id) ?? 0;
    const paidClicks = (await this.repo.paidClicksOf([own.id])).get(own.id) ?? 0;
    const conv = (await this.repo.conversionsOf([own.id])).get(own.id) ?? { conversions: 0, commissionCents: 0, amountCents: 0 };
    return {
      ...base,
      scope: 'partner',
      partners: 1,
      clicks,
      paidClicks,
      conversions: conv.conversions,
      earningsCents: earningsOf(type, program.commission_cents, paidClicks, conv.commissionCents),
      revenueCents: conv.amountCents,
    };
  }

  /**
   * The owner reports a conversion for a click id its program's partner link minted. A click id converts at most
   * once; one this installation never minted, or one of another owner's program, is not found.
   */
  async convert(caller: Caller, input: { clickId?: unknown; amountCents?: unknown }): Promise<Conversion> {
    if (input.clickId === undefined || input.clickId === null || input.clickId === '') throw errors.missingClickId();
    if (typeof input.clickId !== 'string' || input.clickId.length > 200) throw errors.invalidClickId();
    const amountCents = input.amountCents === undefined || input.amountCents === null ? null : checkCents(input.amountCents, 'amountCents', 0, AMOUNT_MAX_CENTS);
    const partnershipId = this.clickIds.partnershipOf(input.clickId);
    const partnership = partnershipId === null ? undefined : await this.repo.findPartnershipById(partnershipId);
    const program = partnership ? await this.repo.findProgram(partnership.program_id) : undefined;
    if (!partnership || !program || program.account_id !== caller.accountId) throw errors.clickNotFound();
    const row = {
      click_id: input.clickId,
      program_id: program.id,
      partnership_id: partnership.id,
      account_id: caller.accountId,
      amount_cents: amountCents,
      // A CPC program pays per click: a conversion reported on it is recorded, and earns nothing more.
      commission_cents: program.commission_type === 'CPA' ? program.commission_cents : 0,
      created_at: this.clock.now().toISOString(),
    };
    if (!(await this.repo.insertConversion(row))) throw errors.alreadyConverted();
    return { clickId: row.click_id, programId: row.program_id, partnershipId: row.partnership_id, amountCents, commissionCents: row.commission_cents, createdAt: row.created_at };
  }

  /** The partnership a partner link belongs to needs a click id on its destination: CPA programs that are active. */
  async needsClickId(partnershipId: string): Promise<boolean> {
    return (await this.repo.activeCommissionType(partnershipId)) === 'CPA';
  }

  issueClickId(partnershipId: string): string {
    return this.clickIds.issue(partnershipId);
  }

  private async partnerships(views: PartnershipView[]): Promise<Partnership[]> {
    await this.pendingClicks.settle();
    const clicks = await this.repo.clicksOf(views);
    const paid = await this.repo.paidClicksOf(views.map((v) => v.id));
    const conversions = await this.repo.conversionsOf(views.map((v) => v.id));
    return views.map((v) => {
      const type = v.commission_type as CommissionType;
      const n = clicks.get(v.id) ?? 0;
      const paidClicks = paid.get(v.id) ?? 0;
      const conv = conversions.get(v.id);
      return {
        id: v.id,
        programId: v.program_id,
        programName: v.program_name,
        commissionType: type,
        commissionCents: Number(v.commission_cents),
        shortCode: v.code,
        shortUrl: v.code === null ? null : this.links.shortUrl({ code: v.code, namespace: v.namespace, slug: v.slug, domain: v.domain }),
        clicks: n,
        paidClicks,
        conversions: conv?.conversions ?? 0,
        earningsCents: earningsOf(type, Number(v.commission_cents), paidClicks, conv?.commissionCents ?? 0),
        createdAt: v.created_at,
      };
    });
  }

  private async ownProgram(caller: Caller, programId: string): Promise<ProgramRow> {
    const program = await this.repo.findProgram(programId);
    if (!program || program.account_id !== caller.accountId) throw errors.affiliateProgramNotFound();
    return program;
  }

  private async present(rows: ProgramRow[], caller: Caller): Promise<Program[]> {
    const counts = await this.repo.partnerCounts(rows.map((r) => r.id));
    return rows.map((row) => presentProgram(row, caller, counts.get(row.id) ?? 0));
  }
}

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

const presentProgram = (row: ProgramRow, caller: Caller, partners: number): Program => ({
  id: row.id,
  name: row.name,
  url: row.url,
  commissionType: row.commission_type as CommissionType,
  commissionCents: Number(row.commission_cents),
  currency: 'USD',
  public: Number(row.public) === 1,
  status: row.status as ProgramStatus,
  own: row.account_id === caller.accountId,
  partners,
  createdAt: row.created_at,
});
