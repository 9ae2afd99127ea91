import { count, isTier, planLabel } from './plans';
import type { AuditEntry } from './types';

const ACTIONS: Record<string, string> = {
  'account.plan': 'Changed the plan',
  'account.role': 'Changed the role',
  'account.disable': 'Disabled the account',
  'account.enable': 'Enabled the account',
  'account.password-reset': 'Made a password reset link',
  'account.delete': 'Deleted the account',
  'sign-ups.update': 'Changed sign-ups',
  'invite.create': 'Made an invite link',
  'link.disable': 'Disabled the link',
  'link.enable': 'Enabled the link',
};

const MODES: Record<string, string> = { open: 'open', invite: 'invite only', closed: 'closed' };

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const plan = (value: unknown): string | null => (isTier(value) ? planLabel(value) : null);

/** The part of an entry's detail worth reading beside its action; the audit API keeps the detail open-ended. */
function detailOf(entry: AuditEntry): string | null {
  const d = entry.detail;
  if (!d) return null;
  const parts: (string | null)[] = [];
  switch (entry.action) {
    case 'account.plan':
      parts.push(plan(d.from) && plan(d.to) ? `${plan(d.from)} to ${plan(d.to)}` : plan(d.to));
      break;
    case 'account.role':
      parts.push(text(d.to) && `now ${text(d.to)}`);
      break;
    case 'sign-ups.update':
      parts.push(text(d.mode) && (MODES[d.mode as string] ?? text(d.mode)), plan(d.tier) && `new accounts on ${plan(d.tier)}`);
      break;
    case 'invite.create':
      parts.push(plan(d.tier) && `for a ${plan(d.tier)} account`);
      break;
    case 'account.delete':
      parts.push(num(d.links) !== null ? `with ${count(num(d.links)!, 'link')}` : null);
      break;
    case 'link.disable':
      parts.push(text(d.owner) && `owned by ${text(d.owner)}`);
      break;
  }
  if (text(d.reason)) parts.push(`“${text(d.reason)}”`);
  const shown = parts.filter((p): p is string => Boolean(p));
  return shown.length ? shown.join(', ') : null;
}

/** An entry's action in words, with its detail when it has one ("Changed the plan: Free to Pro"). */
export function actionText(entry: AuditEntry): string {
  const action = ACTIONS[entry.action] ?? entry.action;
  const detail = detailOf(entry);
  return detail ? `${action}: ${detail}` : action;
}
