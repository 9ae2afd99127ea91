import type { Caller } from '../caller.js';
import type { AuditLogTable } from '../db/schema.js';
import { newId } from '../ids.js';

/** Who did an operator's action: an operator's account, or the CLI (which whoever holds the server's shell runs). */
export interface Actor {
  id: string | null;
  name: string;
}

export const CLI_ACTOR: Actor = { id: null, name: 'cli' };

export const actorOf = (caller: Caller): Actor => ({ id: caller.accountId, name: caller.email });

/** The audit actions, named once: the dashboard's log and `audit list` show these. */
export type AuditAction =
  | 'account.plan'
  | 'account.role'
  | 'account.disable'
  | 'account.enable'
  | 'account.password-reset'
  | 'account.delete'
  | 'account.password-set'
  | 'key.create'
  | 'sign-ups.update'
  | 'invite.create'
  | 'link.disable'
  | 'link.enable';

export function auditEntry(actor: Actor, at: Date, action: AuditAction, target: string | null, detail: Record<string, unknown> | null = null): AuditLogTable {
  return { id: newId('aud'), at: at.toISOString(), actor_id: actor.id, actor: actor.name, action, target, detail: detail === null ? null : JSON.stringify(detail) };
}
