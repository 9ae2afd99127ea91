import { isReservedPath } from '../accounts/namespace-rules.js';
import type { Caller } from '../caller.js';
import { hasControlCharacters } from '../control-characters.js';
import { AppError, errors } from '../errors.js';
import type { LinkDomains } from '../links/creator.js';
import { CODE_PATTERN, MAX_LEGACY_PATH } from '../links/rules.js';
import type { SourceLink } from './source.js';

/**
 * Where an imported link lands. Its own domain moves with it when that domain is Snip's host or one of the account's
 * active domains: then the link keeps its exact path there, as a code when the path is one (6 letters and digits) and
 * as an imported path otherwise. A link on a domain that stays behind (bit.ly, dub.sh, a domain not set up on Snip)
 * gets a new code on `--domain` or the account's default.
 */
export type Placement =
  /** Keeps its path on `domain` (null: BASE_URL's host). */
  | { kind: 'kept'; domain: string | null; code: string | null; legacyPath: string | null; path: string }
  /** A new code; `domain` undefined: the account's default. `why` says why the old path could not come along. */
  | { kind: 'new'; domain: string | undefined; why: string | null }
  | { kind: 'refused'; error: AppError };

/** A path that can answer as it was: one segment Snip does not serve itself and a browser sends as it is. */
function keepable(path: string): string | null {
  if (path === '') return 'it has no path';
  if (path.includes('/')) return 'its path has more than one segment';
  if (path.length > MAX_LEGACY_PATH) return `its path is longer than ${MAX_LEGACY_PATH} characters`;
  if (hasControlCharacters(path) || path.endsWith('+')) return 'its path cannot be served as it is';
  return null;
}

const HOSTNAME = /^[a-z0-9.-]{1,253}$/;

export class Placements {
  private readonly domains = new Map<string, Promise<'own' | 'active' | 'elsewhere' | AppError>>();

  constructor(
    private readonly caller: Caller,
    private readonly ownHostnames: ReadonlySet<string>,
    private readonly linkDomains: LinkDomains,
    /** `--domain`: where links that cannot keep their domain go; undefined for the account's default. */
    private readonly newDomain: string | undefined,
  ) {}

  private domainState(host: string): Promise<'own' | 'active' | 'elsewhere' | AppError> {
    let state = this.domains.get(host);
    if (!state) {
      // A host no DNS name can be (a NUL, a space) stays behind, without asking the database about it.
      state = !HOSTNAME.test(host)
        ? Promise.resolve('elsewhere' as const)
        : this.ownHostnames.has(host)
        ? Promise.resolve('own' as const)
        : this.linkDomains.domainFor(this.caller.accountId, host).then(
            () => 'active' as const,
            // A domain of the account's that is not active yet is refused row by row, so activating it and running
            // the import again brings those links onto it, rather than leaving them with new codes for good.
            (error: unknown) => (error instanceof AppError && error.code === 'DOMAIN_NOT_ACTIVE' ? error : ('elsewhere' as const)),
          );
      this.domains.set(host, state);
    }
    return state;
  }

  async of(link: SourceLink): Promise<Placement> {
    const state = await this.domainState(link.domain);
    if (state instanceof AppError) return { kind: 'refused', error: state };
    if (state === 'elsewhere') return { kind: 'new', domain: this.newDomain, why: null };
    const domain = state === 'own' ? null : link.domain;
    const path = link.code;
    const why = keepable(path);
    if (why !== null) return { kind: 'new', domain: domain ?? undefined, why };
    if (isReservedPath(path)) return { kind: 'refused', error: errors.pathReserved(`/${path}`) };
    if (CODE_PATTERN.test(path)) return { kind: 'kept', domain, code: path, legacyPath: null, path };
    return { kind: 'kept', domain, code: null, legacyPath: `${domain ?? ''}/${path}`, path };
  }
}
