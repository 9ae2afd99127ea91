import type { Static } from '@sinclair/typebox';
import { fullPathOf, type Link } from './link.js';
import type { CreatedLinkA, LinkB, LinkDetailsA } from './schemas.js';

type ShortPathParts = Pick<Link, 'code' | 'namespace' | 'slug'> & { domain?: string | null };

/** Turns links into each description's shapes; the short URL is on the link's custom domain or BASE_URL. */
export class LinkPresenter {
  constructor(private readonly baseUrl: string) {}

  fullPath(link: ShortPathParts): string | null {
    return fullPathOf(link);
  }

  slugOf(link: ShortPathParts): string {
    return fullPathOf(link) ?? link.code;
  }

  shortUrl(link: ShortPathParts): string {
    return this.urlOnHost(link.domain ?? null, this.slugOf(link));
  }

  /** `path` on a custom domain (served with BASE_URL's scheme: TLS is the operator's proxy's either way) or BASE_URL. */
  urlOnHost(domain: string | null, path: string): string {
    const origin = domain ? `${new URL(this.baseUrl).protocol}//${domain}` : this.baseUrl;
    return `${origin}/${path}`;
  }

  createdA(link: Link): Static<typeof CreatedLinkA> {
    return {
      success: true,
      shortUrl: this.shortUrl(link),
      shortCode: link.code,
      fullPath: fullPathOf(link),
      namespace: link.namespace,
      long: link.url,
      created: link.createdAt,
      expiresAt: link.expiresAt,
      maxClicks: link.maxClicks,
      ...this.origin(link),
    };
  }

  /** Where the link came from and where its visitors go: the same fields on every shape of a link. */
  private origin(link: Link) {
    return {
      source: link.source,
      clientName: link.clientName,
      appLinks: link.appLinks,
      rules: link.rules,
      variants: link.variants,
      passwordProtected: link.passwordHash !== null,
      expiredUrl: link.expiredUrl,
      socialPreview: link.socialPreview,
      disabledReason: link.disabledReason,
      title: link.title,
      importedFrom: link.importedFrom,
      importedClicks: link.importedClicks,
    };
  }

  detailsA(link: Link): Static<typeof LinkDetailsA> {
    return {
      id: link.id,
      shortUrl: this.shortUrl(link),
      shortCode: link.code,
      fullPath: fullPathOf(link),
      namespace: link.namespace,
      long: link.url,
      clicks: link.clicks,
      created: link.createdAt,
      expiresAt: link.expiresAt,
      maxClicks: link.maxClicks,
      isCustom: link.slug !== null,
      blockedCountries: link.blockedCountries,
      folderId: link.folderId,
      domain: link.domain,
      tags: link.tags ?? [],
      ...this.origin(link),
    };
  }

  linkB(link: Link): Static<typeof LinkB> {
    return {
      ...this.detailsA(link),
      shortUrl: this.slugOf(link),
      url: this.shortUrl(link),
      activeFrom: link.activeFrom,
      updated: link.updatedAt,
    };
  }
}
