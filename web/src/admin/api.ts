/** The admin API through the dashboard's typed client: each call as the Admin page makes it, in one place. */
import { snip } from '../api';
import type { AdminAccount, SignUpSettings, Tier } from './types';

const account = (id: string) => ({ params: { path: { id } } });

export const adminApi = {
  accounts: (q: string, offset: number, limit = 50) => snip.get('/api/admin/accounts', { params: { query: { ...(q ? { q } : {}), limit, offset } } }),
  setPlan: (id: string, tier: Tier) => snip.put('/api/admin/accounts/{id}/plan', { ...account(id), body: { tier } }),
  setRole: (id: string, role: AdminAccount['role']) => snip.put('/api/admin/accounts/{id}/role', { ...account(id), body: { role } }),
  disable: (id: string, reason: string) => snip.post('/api/admin/accounts/{id}/disable', { ...account(id), body: reason ? { reason } : {} }),
  enable: (id: string) => snip.post('/api/admin/accounts/{id}/enable', account(id)),
  resetPassword: (id: string) => snip.post('/api/admin/accounts/{id}/password-reset', account(id)),
  deleteAccount: (id: string) => snip.delete('/api/admin/accounts/{id}', account(id)),
  signUps: () => snip.get('/api/admin/sign-ups'),
  setSignUps: (settings: SignUpSettings) => snip.put('/api/admin/sign-ups', { body: settings }),
  createInvite: () => snip.post('/api/admin/invites', { body: {} }),
  findLink: (url: string) => snip.get('/api/admin/links/find', { params: { query: { url } } }),
  disableLink: (id: string, reason: string) => snip.post('/api/admin/links/{id}/disable', { params: { path: { id } }, body: { reason } }),
  enableLink: (id: string) => snip.post('/api/admin/links/{id}/enable', { params: { path: { id } } }),
  status: () => snip.get('/api/admin/status'),
  audit: (before: string | null, limit = 50) => snip.get('/api/admin/audit', { params: { query: { limit, ...(before ? { before } : {}) } } }),
};

/** Query keys: everything under ADMIN_KEY is the operator's view, refreshed together after a change. */
export const ADMIN_KEY = ['admin'] as const;
export const adminKeys = {
  accounts: (q: string) => [...ADMIN_KEY, 'accounts', q] as const,
  accountsAll: [...ADMIN_KEY, 'accounts'] as const,
  signUps: [...ADMIN_KEY, 'sign-ups'] as const,
  status: [...ADMIN_KEY, 'status'] as const,
  audit: [...ADMIN_KEY, 'audit'] as const,
};
