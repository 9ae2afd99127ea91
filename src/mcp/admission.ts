import { admit, tierRefusal, type Admission, type Policy } from '../access/policy.js';
import { POLICIES } from '../access/policies.js';
import type { Caller } from '../caller.js';
import type { Core } from '../core.js';
import type { LimitState } from '../usage/service.js';
import type { Scope } from '../oauth/scopes.js';
import type { RequestId } from './json-rpc.js';
import { scopeRefusal } from './tool.js';

interface Message {
  id?: RequestId;
  method?: string;
  params?: { name?: unknown };
}

const messagesOf = (body: unknown): Message[] =>
  (Array.isArray(body) ? body : [body]).filter((m): m is Message => typeof m === 'object' && m !== null && 'method' in m && 'id' in m);

/**
 * Admits every call of one POST before any runs, each as its REST twin would be (a tool call by its tool's policy,
 * a protocol call such as tools/list as an `any` operation), so a batch of N tool calls costs N. If any call is over
 * a limit, the calls admitted before it are refunded and the whole POST is refused with that 429: nothing runs,
 * nothing is charged. A call above the caller's plan or outside its OAuth scopes is not charged here; its tool
 * answers the 403.
 */
export async function admitCalls(
  core: Core,
  caller: Caller,
  body: unknown,
  toolOf: (name: string) => { policy: Policy; scope: Scope } | undefined,
): Promise<{ admissions: Map<RequestId, Admission>; state: LimitState | null }> {
  const admissions = new Map<RequestId, Admission>();
  let state: LimitState | null = null;
  try {
    for (const message of messagesOf(body)) {
      const name = message.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name : null;
      const spec = name !== null ? toolOf(name) : undefined;
      const policy = spec?.policy ?? POLICIES.ownAccount;
      if ((spec && scopeRefusal(caller, spec)) || tierRefusal(core.config.plans, caller, policy)) continue;
      const admission = await admit(core.config.plans, core.usage, caller, policy);
      state = admission.state ?? state;
      if (message.id !== undefined && !admissions.has(message.id)) admissions.set(message.id, admission);
      else admissions.set(Symbol() as never, admission);
    }
  } catch (error) {
    for (const admission of admissions.values()) await admission.refund();
    throw error;
  }
  return { admissions, state };
}
