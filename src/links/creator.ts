import type { Plans } from '../plans.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import { hashPassword } from '../sessions/passwords.js';
import type { EventBus } from '../events/bus.js';
import type { UsageService } from '../usage/service.js';
import { draftLink, type CreateLinkInput, type LinkDraft } from './drafts.js';
import type { Link } from './link.js';
import type { LinkWriter } from './link-writer.js';
import type { LinksRepository } from './repository.js';
import { checkDestination } from './rules.js';

/** Which custom domain a new link's short URL uses (src/domains). */
export interface LinkDomains {
  /** The requested domain when it is the account's active one (else an error), or the account's default. */
  domainFor(accountId: string, requested: string | undefined): Promise<string | null>;
}

/** The caller's UTM templates (src/utm), applied to a new link's destination. */
export interface LinkUtmTemplates {
  /** `url` with the template's utm_* parameters set; an unknown or foreign template is refused. */
  apply(caller: Caller, templateId: string, url: string): Promise<string>;
}

/** What creating links needs, one at a time (LinkCreator) or many (BulkCreator); wired by LinksService. */
export interface CreationDeps {
  repo: LinksRepository;
  writer: LinkWriter;
  bus: EventBus;
  usage: UsageService;
  clock: Clock;
  ownHostnames: ReadonlySet<string>;
  plans: Plans;
  domains: LinkDomains;
  utmTemplates: LinkUtmTemplates;
}

/**
 * A new link's draft by every rule, its custom domain and UTM template included: the one way single and bulk
 * creation (bulk-creator.ts) turn an input into a link, so an option cannot work in one and be dropped by the other.
 */
export async function draftFor(deps: CreationDeps, caller: Caller, input: CreateLinkInput, now: Date): Promise<LinkDraft> {
  const draft = draftLink(caller, input, now, deps.ownHostnames, deps.plans);
  draft.domain = await deps.domains.domainFor(caller.accountId, input.domain);
  if (input.password !== undefined) draft.passwordHash = await hashPassword(input.password);
  if (input.utmTemplateId !== undefined) {
    // Checked again: the template's parameters may make the destination too long.
    draft.url = checkDestination(await deps.utmTemplates.apply(caller, input.utmTemplateId, draft.url), deps.ownHostnames);
  }
  return draft;
}

/** Makes one new link; every rule comes from `draftLink`, so single and bulk creation (bulk-creator.ts) agree. */
export class LinkCreator {
  constructor(private readonly deps: CreationDeps) {}

  /** `partnershipId`: set by affiliate programs for a partner link, never from a client's input. */
  async createOne(caller: Caller, input: CreateLinkInput, partnershipId: string | null = null): Promise<Link> {
    const now = this.deps.clock.now();
    const draft = { ...(await draftFor(this.deps, caller, input, now)), partnershipId };
    if (draft.namespace && draft.slug && (await this.deps.repo.find({ namespace: draft.namespace, slug: draft.slug }))) {
      throw errors.slugTaken();
    }
    const refund = await this.deps.usage.chargeLinks(caller, 1);
    try {
      // The webhook event was committed with the link (LinksRepository.insert); the bus tells in-process caches.
      const link = await this.deps.writer.insertWithFreshCode(draft, now, null);
      this.deps.bus.emit('link.created', { link });
      return link;
    } catch (error) {
      await refund();
      throw error;
    }
  }
}
