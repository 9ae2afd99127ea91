import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../errors.js';
import { toAppError } from './error-handler.js';
import { errorCodesOf } from './openapi.js';

/** Told of an operation's route answering a code it does not declare: `where` is `METHOD /route`. */
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

/** A running server's report: one warning per route and code. */
function logOnce(app: FastifyInstance): UndeclaredCode {
  const seen = new Set<string>();
  return (where, code) => {
    if (seen.has(`${where} ${code}`)) return;
    seen.add(`${where} ${code}`);
    app.log.warn({ route: where, code }, 'an operation answered an error code it does not declare');
  };
}
