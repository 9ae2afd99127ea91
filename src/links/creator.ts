import type { Plans } from '../accounts/plans.js';
import type { Caller } from '../accounts/service.js';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import type { UsageService } from '../usage/service.js';
import { draftLink, type CreateLinkInput } from './drafts.js';
import type { Link } from './link.js';
import type { LinkWriter } from './link-writer.js';
import type { LinksRepository } from './repository.js';
import { checkDestination } from './rules.js';

/** Which custom domain a new link's short URL uses (src/domains). */
export interface LinkDomains {
  /** The requested domain when it is the account's active one (else an error), or the account's default. */
  domainFor(accountId: string, requested: unknown): Promise<string | null>;
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
}

/** Makes one new link; every rule comes from `draftLink`, so single and bulk creation (bulk-creator.ts) agree. */
export class LinkCreator {
  constructor(
    private readonly deps: CreationDeps,
    private readonly utmTemplates: LinkUtmTemplates,
  ) {}

  /** `partnershipId`: set by affiliate programs for a partner link, never from a client's input. */
  async createOne(caller: Caller, input: CreateLinkInput, partnershipId: string | null = null): Promise<Link> {
    const now = this.deps.clock.now();
    const draft = draftLink(caller, input, now, this.deps.ownHostnames, this.deps.plans);
    draft.partnershipId = partnershipId;
    draft.domain = await this.deps.domains.domainFor(caller.accountId, input.domain);
    draft.url = await this.withUtm(caller, input.utmTemplateId, draft.url);
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

  /** The destination with the template's parameters, checked again (the parameters may make it too long). */
  private async withUtm(caller: Caller, templateId: unknown, url: string): Promise<string> {
    if (templateId === undefined || templateId === null) return url;
    if (typeof templateId !== 'string') throw errors.invalidUtmTemplateId();
    return checkDestination(await this.utmTemplates.apply(caller, templateId, url), this.deps.ownHostnames);
  }
}
