/** The admin API's answers, read from the typed client by path (never written by hand). */
import type { Answer } from '../api';
import type { Tier } from '../session';

export type { Tier };
export type AccountPage = Answer<'/api/admin/accounts', 'get'>;
export type AdminAccount = AccountPage['accounts'][number];
export type Role = AdminAccount['role'];
/** The one-time link the operator passes on. */
export type PasswordReset = Answer<'/api/admin/accounts/{id}/password-reset', 'post'>;
/** What went with a deleted account. */
export type DeletedAccount = Answer<'/api/admin/accounts/{id}', 'delete'>;
export type SignUpSettings = Answer<'/api/admin/sign-ups', 'get'>;
export type SignUpMode = SignUpSettings['mode'];
export type Invite = Answer<'/api/admin/invites', 'post'>;
export type AdminLink = Answer<'/api/admin/links/find', 'get'>;
export type ServerStatus = Answer<'/api/admin/status', 'get'>;
/** Newest first; `next` is the `before` of the following page. */
export type AuditPage = Answer<'/api/admin/audit', 'get'>;
export type AuditEntry = AuditPage['entries'][number];
