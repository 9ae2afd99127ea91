import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, errors, type ErrorCode } from '../errors.js';
import { fromSchemaIssues, nulError, nulPath } from '../schema/issues.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeep } from './json-limits.js';
import { settle } from '../access/policy.js';
import type { Access } from './access.js';
import { methodRefusals, type RefusalBodies } from './methods.js';

/** The part of the request a rule about the whole of it is about, by Fastify's validation context. */
const WHOLE: Record<string, string> = { body: 'The body', querystring: 'The query', params: 'The path', headers: 'The headers' };

const FASTIFY_CODES: Record<string, () => AppError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: errors.unsupportedMediaType,
  FST_ERR_CTP_BODY_TOO_LARGE: errors.bodyTooLarge,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => errors.invalidBody('Content-Length does not match the body'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => errors.invalidBody('The JSON body is empty'),
  FST_ERR_CTP_INVALID_JSON_BODY: errors.invalidJson,
};

/** Another framework refusal by its status; a 4xx the catalogue has no code for is a 400 BAD_REQUEST. */
const BY_STATUS: Record<number, (message: string) => AppError> = {
  404: (message) => new AppError('NOT_FOUND', message),
  413: errors.bodyTooLarge,
  415: errors.unsupportedMediaType,
};

/**
 * RFC 6750's challenge of a 401: a credential that was sent and refused is an invalid_token; a route that takes OAuth
 * tokens (MCP) also names its protected-resource metadata (RFC 9728), where a client starts the authorization flow.
 */
export function bearerChallenge(code: ErrorCode, access: Access | undefined): string {
  const params = [];
  if (code === 'INVALID_API_KEY') params.push('error="invalid_token"');
  if (access?.auth === 'required' && access.oauth) params.push(`resource_metadata="${access.oauth}"`);
  return params.length > 0 ? `Bearer ${params.join(', ')}` : 'Bearer';
}

export function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return fromSchemaIssues(fastifyError.validation, WHOLE[fastifyError.validationContext ?? '']);
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) return known();
  if (error instanceof SyntaxError || (fastifyError.statusCode === 400 && /JSON/i.test(error.message))) return errors.invalidJson();
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) return (BY_STATUS[status] ?? errors.badRequest)(error.message);
  return errors.internalError();
}

/** `refusals`: the refusal bodies of surfaces that answer in a shape of their own, by path (src/http/methods.ts). */
export function registerErrorHandling(app: FastifyInstance, refusals: RefusalBodies): void {
  app.setErrorHandler(async (error: FastifyError | AppError, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    // A request refused for a limit (the daily link limit, checked after the request was counted) costs nothing.
    await settle(appError, request.refundUsage ? { refund: request.refundUsage } : null);
    reply.headers(appError.headers);
    // RFC 6750: a 401 names the scheme it wants; a key that was sent and refused is an invalid_token.
    if (appError.status === 401) reply.header('www-authenticate', bearerChallenge(appError.code, request.routeOptions.config?.access));
    // Description B's only documented error body is its rate-limit one: {error: <text>, code}.
    if (appError.status === 429 && request.routeOptions.config?.surface === 'B') {
      return reply.status(429).send({ error: appError.message, code: appError.code });
    }
    return reply.status(appError.status).send({ error: true, message: appError.message, code: appError.code });
  });
  // A path other methods serve is 405 with Allow (src/http/methods.ts); only a path no route has is 404.
  const methodNotAllowed = methodRefusals(app, refusals);
  app.setNotFoundHandler((request, reply) =>
    methodNotAllowed(request, reply) ??
    reply.status(404).send({ error: true, message: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND' satisfies ErrorCode }),
  );
  // An empty body on a JSON request is read as {}, so "no url" gets MISSING_URL rather than a parser error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Only JSON bodies are accepted; anything else (text/plain included) is 415 UNSUPPORTED_MEDIA_TYPE.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    return parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      // Nested past the bound, a body is refused before anything walks it recursively (src/http/json-limits.ts).
      if (nestsDeeperThan(value, MAX_JSON_DEPTH)) return done(tooDeep(), undefined);
      // JSON carries a NUL only as the escape \u0000 (a raw control character is a parse error), and no database stores
      // one in text: such a body is refused here, naming the field, before any route sees it. Other bodies pay one search.
      const path = text.includes('\\u0000') ? nulPath(value) : null;
      return path ? done(nulError(path, 'The body'), undefined) : done(null, value);
    });
  });
}
