import type { Core } from '../core.js';
import { CLI_ACTOR } from '../admin/audit.js';
import { errors } from '../errors.js';

export interface AdminOptions {
  email?: string;
  tier?: string;
  reason?: string;
  url?: string;
  mode?: string;
  before?: string;
}

const need = (options: AdminOptions, name: 'email' | 'url' | 'mode' | 'reason'): string => {
  const value = options[name];
  if (!value) throw errors.missingArgument(`--${name}`);
  return value;
};

const idOf = (core: Core, o: AdminOptions) => core.admin.accountIdOf(need(o, 'email'));

/**
 * The operator's admin operations on the command line: the same service methods as the Admin area, written to the
 * audit log as done by `cli` (whoever holds the server's shell).
 */
export const ADMIN_COMMANDS: Record<string, { run(core: Core, options: AdminOptions): Promise<unknown> }> = {
  'operators add': { run: async (core, o) => core.admin.setRole(CLI_ACTOR, await idOf(core, o), 'operator') },
  'operators remove': { run: async (core, o) => core.admin.setRole(CLI_ACTOR, await idOf(core, o), 'member') },
  'operators list': { run: async (core) => ({ operators: (await core.accounts.listAccounts()).filter((a) => a.role === 'operator') }) },
  'users disable': { run: async (core, o) => core.admin.disable(CLI_ACTOR, await idOf(core, o), o.reason) },
  'users enable': { run: async (core, o) => core.admin.enable(CLI_ACTOR, await idOf(core, o)) },
  'users reset-password': { run: async (core, o) => core.admin.passwordReset(CLI_ACTOR, await idOf(core, o)) },
  'sign-ups show': { run: (core) => core.admin.signUps.settings() },
  'sign-ups set': {
    run: async (core, o) => {
      if (!o.mode && !o.tier) throw errors.missingArgument('--mode or --tier');
      const current = await core.admin.signUps.settings();
      const mode = o.mode ?? current.mode;
      if (mode !== 'open' && mode !== 'invite' && mode !== 'closed') throw errors.invalidArgument('--mode must be open, invite or closed');
      return core.admin.signUps.update(CLI_ACTOR, { mode, tier: o.tier ?? current.tier });
    },
  },
  'invites create': { run: (core, o) => core.admin.signUps.createInvite(CLI_ACTOR, o.tier) },
  'links disable': {
    run: async (core, o) => core.admin.disableLink(CLI_ACTOR, (await core.admin.findLink(need(o, 'url'))).id, need(o, 'reason')),
  },
  'links enable': { run: async (core, o) => core.admin.enableLink(CLI_ACTOR, (await core.admin.findLink(need(o, 'url'))).id) },
  'audit list': { run: (core, o) => core.admin.audit({ limit: 50, before: o.before }) },
};
