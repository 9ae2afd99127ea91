import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { DateTime, errorResponses, Nullable } from '../schema/shapes.js';
import { DOMAIN_OPERATIONS as ops } from './operations.js';
import type { DomainsService } from './service.js';
import { named } from '../schema/names.js';

const Status = Type.Unsafe<'pending_txt' | 'verified' | 'active'>({ type: 'string', enum: ['pending_txt', 'verified', 'active'] });
const NotFoundPageShape = Type.Object({
  type: Type.String({ enum: ['redirect', 'html'] }),
  redirectUrl: Type.Optional(Type.String()),
  html: Type.Optional(Type.String({ description: 'At most 10,000 characters; scripts are stripped' })),
});
const NotFoundPage = Nullable(NotFoundPageShape);
// The request's page is judged by the service (one code, INVALID_NOT_FOUND_PAGE, for every bad shape).
const NotFoundPageInput = Type.Unsafe<unknown>({ description: 'null clears it; else {type: "redirect", redirectUrl} or {type: "html", html}' });
const DnsRecord = <T extends string>(type: T) => Type.Object({ name: Type.String(), type: Type.Literal(type), value: Type.String() });
const PointerRecord = Type.Object(
  {
    name: Type.String(),
    type: Type.Union([Type.Literal('CNAME'), Type.Literal('A'), Type.Literal('AAAA')], { description: 'CNAME, or A/AAAA when the target is an IP address' }),
    value: Type.String(),
  },
  { description: "The record pointing the domain at this server: a CNAME to CNAME_TARGET (BASE_URL's host by default), or an A or AAAA record to its address when that is an IP address" },
);
export const DomainItem = named('Domain', 'A custom domain', Type.Object({
  domain: Type.String(),
  status: Status,
  sslStatus: Type.String({ description: "pending until the domain is active, then active. Snip issues no certificates: HTTPS on the domain is served by the operator's proxy in front of Snip" }),
  createdAt: DateTime(),
  linkCount: Type.Integer(),
  isDefault: Type.Boolean({ description: 'New links use this domain' }),
  notFoundPage: NotFoundPage,
  txtRecord: DnsRecord('TXT'),
  cnameRecord: PointerRecord,
}));
// The answers, named: MCP's domain tools answer the same (src/mcp/tools/domains.ts).
export const DomainList = Type.Object({ domains: Type.Array(DomainItem), monthlyPrice: Type.Number() });
export const AddedDomain = Type.Object({ domain: Type.String(), status: Status, verificationToken: Type.String(), txtRecord: DnsRecord('TXT'), cnameRecord: PointerRecord });
export const DomainVerification = Type.Object({ verified: Type.Boolean(), status: Status, hint: Type.String() });
export const DomainActivation = Type.Object({ success: Type.Boolean(), domain: Type.String(), status: Status, billing: Type.Object({ free: Type.Boolean() }) });
export const DomainDeleted = Type.Object({ success: Type.Boolean() });
const Params = Type.Object({ domain: Type.String() });

const tags = ['domains (B)'];

/** Description B's custom domains: /api/user/domains and the public availability check. */
export const domainRoutes =
  (domains: DomainsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/api/user/domains', { config: bind(ops.list, 'B'), schema: { tags, summary: "The caller's custom domains", description: "Lists the caller's custom domains with their state (pending_txt, verified, active), the DNS records each needs, its number of links, which one is the default and the page its unknown paths show. Pro and above.", response: { 200: DomainList } } }, async (request) =>
      domains.list(callerOf(request)),
    );

    app.post(
      '/api/user/domains',
      {
        config: bind(ops.add, 'B'),
        schema: {
          tags,
          summary: 'Add a domain; answers the DNS records to create',
          description: "Claims a hostname for the caller's short links and answers the two DNS records to create: a TXT record proving control and a CNAME pointing the name at Snip. Until verified the claim owns nothing: the first account to verify gets the name.",
          body: Type.Object({ domain: Type.String({ description: 'Hostname, e.g. links.example.com' }) }),
          response: { 201: AddedDomain, ...errorResponses(400, 403, 409) },
        },
      },
      async (request, reply) => reply.status(201).send(await domains.add(callerOf(request), request.body.domain)),
    );

    app.get(
      '/api/user/domains/:domain/verify',
      {
        config: bind(ops.verify, 'B'),
        schema: { tags, summary: 'Look up the TXT record and verify the domain', description: "Looks up the domain's TXT record now; when it holds the caller's token the domain becomes verified and the caller's alone. Otherwise the hint says what was found; DNS changes can take up to 48 hours to show.", params: Params, response: { 200: DomainVerification, ...errorResponses(404, 409) } },
      },
      async (request) => domains.verify(callerOf(request), request.params.domain),
    );

    app.post(
      '/api/user/domains/:domain/activate',
      {
        config: bind(ops.activate, 'B'),
        schema: {
          tags,
          summary: 'Activate a verified domain',
          description: "Starts serving the caller's short links on a verified domain; new links may then be made on it. A domain still waiting for its TXT record is refused.",
          params: Params,
          response: { 200: DomainActivation, ...errorResponses(400, 404) },
        },
      },
      async (request) => domains.activate(callerOf(request), request.params.domain),
    );

    app.patch(
      '/api/user/domains/:domain',
      {
        config: bind(ops.update, 'B'),
        schema: {
          tags,
          summary: 'Make the default domain, or set the page unknown paths show',
          description: "Makes an active domain the one the caller's new links get unless they name another (or stops it being the default), or sets the page a visitor of an unknown path on it sees.",
          params: Params,
          body: Type.Object({ setDefault: Type.Optional(Type.Boolean()), notFoundPage: Type.Optional(NotFoundPageInput) }, { minProperties: 1 }),
          response: { 200: DomainItem, ...errorResponses(400, 404) },
        },
      },
      async (request) => domains.update(callerOf(request), request.params.domain, request.body),
    );

    app.delete(
      '/api/user/domains/:domain',
      { config: bind(ops.delete, 'B'), schema: { tags, summary: 'Remove a domain; its links fall back to the default host', description: "Removes one of the caller's domains, at any step; its links stay and are served on Snip's own host from then on.", params: Params, response: { 200: DomainDeleted, ...errorResponses(404) } } },
      async (request) => {
        await domains.delete(callerOf(request), request.params.domain);
        return { success: true };
      },
    );

    app.get(
      '/api/domains/check/:hostname',
      {
        config: { surface: 'B', access: { auth: 'none' }, errors: ['INVALID_DOMAIN', 'RESERVED_DOMAIN'] },
        schema: { tags, operationId: 'checkDomainB', summary: 'Whether a domain can be added', description: 'For anyone, no key: whether a hostname is valid, not reserved and not verified by an account yet, so it can be added. Pending claims by others do not make it unavailable.', params: Type.Object({ hostname: Type.String() }), response: { 200: Type.Object({ hostname: Type.String(), available: Type.Boolean() }), ...errorResponses(400) } },
      },
      async (request) => domains.check(request.params.hostname),
    );
  };
