import type { Answer } from '../api';

/** The shapes of B's /api/user/domains answers (the list carries each domain's DNS records, so they can be read again). */
export type DomainList = Answer<'/api/user/domains', 'get'>;
export type DomainInfo = DomainList['domains'][number];
export type DomainStatus = DomainInfo['status'];
export type NotFoundPage = NonNullable<DomainInfo['notFoundPage']>;
export type AddAnswer = Answer<'/api/user/domains', 'post'>;
export type DnsRecord = AddAnswer['txtRecord'] | AddAnswer['cnameRecord'];
export type VerifyAnswer = Answer<'/api/user/domains/{domain}/verify', 'get'>;
export type ActivateAnswer = Answer<'/api/user/domains/{domain}/activate', 'post'>;

export const DOMAINS_KEY = ['domains'];

/** The domain's own routes take the hostname as one path parameter. */
export const domainParams = (domain: string) => ({ path: { domain } });

export const STATUS_BADGE: Record<DomainStatus, { label: string; color: string }> = {
  pending_txt: { label: 'Pending', color: 'yellow' },
  verified: { label: 'Verified', color: 'blue' },
  active: { label: 'Active', color: 'teal' },
};
