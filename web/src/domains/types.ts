/** The shapes of B's /api/user/domains answers (the list carries each domain's DNS records, so they can be read again). */

export type DomainStatus = 'pending_txt' | 'verified' | 'active';

export interface DnsRecord {
  name: string;
  type: string;
  value: string;
}

export interface NotFoundPage {
  type: 'redirect' | 'html';
  redirectUrl?: string;
  html?: string;
}

export interface DomainInfo {
  domain: string;
  status: DomainStatus;
  sslStatus: string;
  createdAt: string;
  linkCount: number;
  isDefault: boolean;
  notFoundPage: NotFoundPage | null;
  /** Sent by the server; optional so a list without them still renders (the records then come from the add answer). */
  txtRecord?: DnsRecord;
  cnameRecord?: DnsRecord;
}

export interface DomainList {
  domains: DomainInfo[];
  monthlyPrice: number;
}

export interface VerifyAnswer {
  verified: boolean;
  status: DomainStatus;
  hint: string;
}

export interface ActivateAnswer {
  success: boolean;
  domain: string;
  status: DomainStatus;
  billing: { free: boolean } & Record<string, unknown>;
}

export const DOMAINS_KEY = ['domains'];

/** The domain's own route: B takes the hostname as one path segment. */
export const domainPath = (domain: string, rest = ''): string => `/api/user/domains/${encodeURIComponent(domain)}${rest}`;

export const STATUS_BADGE: Record<DomainStatus, { label: string; color: string }> = {
  pending_txt: { label: 'Pending', color: 'yellow' },
  verified: { label: 'Verified', color: 'blue' },
  active: { label: 'Active', color: 'teal' },
};
