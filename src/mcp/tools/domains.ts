import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schema/shapes.js';
import { args, tool } from '../tool.js';
import { DOMAIN_OPERATIONS as ops } from '../../domains/operations.js';
import { AddedDomain, DomainActivation, DomainDeleted, DomainItem, DomainList, DomainVerification } from '../../domains/routes.js';

const domain = Type.String({ description: 'Hostname, e.g. links.example.com' });

export const domainTools = [
  tool({
    name: 'list_domains',
    title: 'List custom domains',
    scope: 'domains:read',
    description: 'Your custom domains with status, link count and settings (Pro and above).',
    operation: ops.list,
    input: {},
    output: DomainList,
    run: async (_args, { core, caller }) => core.domains.list(caller),
  }),
  tool({
    name: 'add_domain',
    title: 'Add a custom domain',
    scope: 'domains:write',
    description: 'Add a custom domain; answers the TXT and CNAME records to create at your DNS provider (Pro and above).',
    operation: ops.add,
    input: { domain },
    output: AddedDomain,
    run: async ({ domain }, { core, caller }) => core.domains.add(caller, domain),
  }),
  tool({
    name: 'verify_domain',
    title: 'Verify a custom domain',
    scope: 'domains:write',
    description: 'Look up the domain’s TXT record; once found the domain is verified and activated, ready for links (Pro and above).',
    operation: ops.verify,
    input: { domain },
    // REST's verification, with the activation's billing once the call activated the domain.
    output: Type.Object({ ...DomainVerification.properties, billing: Type.Optional(DomainActivation.properties.billing) }),
    // It asks DNS for the TXT record; verifying again changes nothing more.
    hints: { openWorldHint: true, idempotentHint: true },
    run: async ({ domain }, { core, caller }) => {
      const verification = await core.domains.verify(caller, domain);
      if (!verification.verified || verification.status === 'active') return verification;
      const activated = await core.domains.activate(caller, domain);
      return { ...verification, status: activated.status, billing: activated.billing };
    },
  }),
  tool({
    name: 'update_domain',
    title: 'Update a custom domain',
    scope: 'domains:write',
    description: 'Make a domain your default for new links, or set what unknown paths on it show (redirect or HTML) (Pro and above).',
    operation: ops.update,
    input: {
      domain,
      setDefault: Type.Optional(Type.Boolean()),
      notFoundPage: Type.Optional(
        Nullable(
          Type.Object(
            { type: args.oneOf(['redirect', 'html'], 'redirect or html'), redirectUrl: Type.Optional(Type.String()), html: Type.Optional(Type.String()) },
            { description: 'redirect: send unknown paths to redirectUrl; html: show this page (max 10,000 characters, scripts removed); null: the standard page' },
          ),
        ),
      ),
    },
    output: DomainItem,
    run: async ({ domain, ...input }, { core, caller }) => core.domains.update(caller, domain, input),
  }),
  tool({
    name: 'delete_domain',
    title: 'Remove a custom domain',
    scope: 'domains:write',
    description: 'Remove a custom domain; its links fall back to the default host (Pro and above).',
    operation: ops.delete,
    input: { domain },
    output: DomainDeleted,
    run: async ({ domain }, { core, caller }) => {
      await core.domains.delete(caller, domain);
      return { success: true };
    },
  }),
];
