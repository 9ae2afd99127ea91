/**
 * Snip's import rules (docs/architecture.md, "Layers"), checked by `npm run lint:imports` and so by `npm run lint`.
 *
 * Imports run one way, from the top down:
 *   surfaces     src/http, src/mcp, src/cli, every routes file, the OAuth server and pages, the redirect's fast
 *                path, the composition root (app.ts, core.ts, main.ts, server.ts): anything below; but src/http,
 *                the plumbing the others share, only the kernel and src/access
 *   operations   <capability>/operations.ts, src/access (policies, admission): services and the kernel
 *   services     the rest of each capability folder: repositories, the kernel, other capabilities' services
 *   repositories <capability>/repository.ts: the kernel and their own capability's types, never a service
 *   kernel       db, events, schema, errors, net, runtime, config, clock, ids, names, control characters, and
 *                who calls with what plan (caller.ts, plans.ts): nothing above it
 * A type-only import counts like any other: it ties the two modules together all the same.
 */

const KERNEL = [
  '^src/(db|events|schema|net|runtime|errors)/',
  '^src/(errors|clock|ids|names|control-characters|config|caller|plans)[.]ts$',
];
const SURFACES = [
  '^src/(http|mcp|cli)/',
  '^src/(app|core|main|server)[.]ts$',
  '^src/[^/]+/routes[^/]*[.]ts$',
  '^src/[^/]+/[^/]+-routes[.]ts$',
  // oidc-provider's own HTTP app, mounted under /oauth, and the sign-in and consent pages it serves.
  '^src/oauth/(provider|mount|interactions|pages)[.]ts$',
  // Answers `GET /{code}` on the raw Node request before Fastify: an HTTP adapter like the redirect's route.
  '^src/redirects/fast-path[.]ts$',
];
const OPERATIONS = ['^src/[^/]+/operations[.]ts$', '^src/access/'];
const REPOSITORIES = ['^src/[^/]+/repository[.]ts$'];

/**
 * The imports that cross a layer the wrong way on purpose: keep this list short, and say why for each. Each entry
 * lifts one rule for one import and nothing else.
 */
const EXCEPTIONS = [];

function withExceptions(rule) {
  const lifted = EXCEPTIONS.filter((e) => e.rule === rule.name);
  if (lifted.length === 0) return [rule];
  const froms = [...new Set(lifted.map((e) => e.from))];
  const list = (value) => (value === undefined ? [] : [value].flat());
  return [
    { ...rule, from: { ...rule.from, pathNot: [...list(rule.from.pathNot), ...froms] } },
    ...froms.map((from) => ({
      ...rule,
      comment: `${rule.comment} Exception: ${lifted.filter((e) => e.from === from).map((e) => e.comment).join(' ')}`,
      from: { ...rule.from, path: from },
      to: { ...rule.to, pathNot: [...list(rule.to.pathNot), ...lifted.filter((e) => e.from === from).map((e) => e.to)] },
    })),
  ];
}

const layerRules = [
  {
    name: 'kernel-knows-no-feature',
    comment:
      'The kernel (db, events, schema, errors, net, runtime, config, clock, ids, caller, plans) imports nothing above ' +
      'it: features register with it (events.ts files augment DomainEvents) or hand it data.',
    severity: 'error',
    from: { path: KERNEL },
    to: { path: '^src/', pathNot: KERNEL },
  },
  {
    name: 'http-plumbing-knows-no-feature',
    comment:
      'src/http is the plumbing every HTTP surface shares (access hook, errors, OpenAPI, hosts): besides the kernel it ' +
      'imports only src/access; a feature it needs is handed in by src/app.ts (ApiKeys, Sessions, scopes, refusal bodies).',
    severity: 'error',
    from: { path: '^src/http/' },
    to: { path: '^src/', pathNot: [...KERNEL, '^src/http/', '^src/access/'] },
  },
  {
    name: 'repository-imports-kernel-and-own-types',
    comment:
      "A repository holds the SQL: it imports the kernel and its own capability's types, never a service, an " +
      "operation, a surface or another capability (take another table's row type from db/schema.ts).",
    severity: 'error',
    from: { path: '^src/([^/]+)/repository[.]ts$' },
    to: {
      path: '^src/',
      pathNot: [...KERNEL, '^src/$1/(?!(service|operations|routes[^/]*|[^/]+-routes)[.]ts$)[^/]+[.]ts$'],
    },
  },
  {
    name: 'service-stays-below-operations',
    comment: 'A service holds the rules and never sees a request: it imports no operation and no surface.',
    severity: 'error',
    from: { path: '^src/[^/]+/', pathNot: [...KERNEL, ...SURFACES, ...OPERATIONS, ...REPOSITORIES] },
    to: { path: [...SURFACES, ...OPERATIONS], pathNot: KERNEL },
  },
  {
    name: 'operation-stays-below-surfaces',
    comment: 'An operation is defined once, for every surface: it imports no surface.',
    severity: 'error',
    from: { path: OPERATIONS, pathNot: KERNEL },
    to: { path: SURFACES },
  },
];

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles, type-only ones included: each module can be read, tested and moved on its own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to no file is a typo or a missing package.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    ...layerRules.flatMap(withExceptions),
  ],
  options: {
    // Type-only imports are dependencies too (tsc keeps them; a circle through them is still a circle).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Resolve packages by their `exports` like Node does (@modelcontextprotocol/sdk/types.js, kysely/migration).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
