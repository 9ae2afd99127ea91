import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ErrorCode } from '../errors.js';
import { toAppError } from './error-handler.js';
import { errorCodesOf } from './openapi.js';

/**
 * Told of an operation answering a code it does not declare: `where` is `METHOD /route` for a REST route and
 * `tools/call <tool>` for an MCP tool.
 */
export type UndeclaredCode = (where: string, code: ErrorCode) => void;

/**
 * An operation's error codes are a closed set: what the OpenAPI document lists under `x-error-codes`, and what the
 * typed client's error union holds. A refusal outside that set is a broken promise to clients, so every one is
 * reported (the tests fail on it: test/helpers/app.ts; a running server logs each pair once). Runs only on errors.
 */
export function watchDeclaredCodes(app: FastifyInstance, report: UndeclaredCode = logOnce(app)): void {
  const declared = new Map<string, Set<ErrorCode>>();
  app.addHook('onError', async (request, _reply, error) => {
    const route = request.routeOptions;
    if (!route.url || !route.config?.access) return;
    const where = `${request.method} ${route.url}`;
    let codes = declared.get(where);
    if (!codes) {
      codes = new Set(errorCodesOf({ config: route.config, schema: route.schema, method: route.method, url: route.url }));
      declared.set(where, codes);
    }
    const { code } = toAppError(error);
    if (!codes.has(code)) report(where, code);
  });
}

/**
 * MCP tool calls answer their refusals inside a 200 (tool errors), where no Fastify hook sees them: `callTool`
 * (src/mcp/tool.ts) checks each against its tool's declared codes and reports here, to the reporter registered for
 * the app's core (`watchToolCodes`), or else, as REST does unless told otherwise, to the log once per tool and code.
 */
const toolReporters = new WeakMap<object, UndeclaredCode>();
const toolWarnings = new WeakMap<object, Set<string>>();

/** Reports the undeclared codes of the tool calls `core` serves to `report` (the tests': test/helpers/app.ts). */
export function watchToolCodes(core: object, report: UndeclaredCode): void {
  toolReporters.set(core, report);
}

/** A tool call's refusal with `code`, checked against the codes its tool declares; `log` is the call's request's. */
export function checkToolCode(core: object, log: FastifyBaseLogger | undefined, tool: string, declared: ReadonlySet<ErrorCode>, code: ErrorCode): void {
  if (declared.has(code)) return;
  const where = `tools/call ${tool}`;
  const report = toolReporters.get(core);
  if (report) return report(where, code);
  let seen = toolWarnings.get(core);
  if (!seen) toolWarnings.set(core, (seen = new Set()));
  warnOnce(seen, log, where, code);
}

/** A running server's report: one warning per route (or tool) and code. */
function logOnce(app: FastifyInstance): UndeclaredCode {
  const seen = new Set<string>();
  return (where, code) => warnOnce(seen, app.log, where, code);
}

function warnOnce(seen: Set<string>, log: FastifyBaseLogger | undefined, where: string, code: ErrorCode): void {
  if (seen.has(`${where} ${code}`)) return;
  seen.add(`${where} ${code}`);
  log?.warn({ route: where, code }, 'an operation answered an error code it does not declare');
}
