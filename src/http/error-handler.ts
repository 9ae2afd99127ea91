import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/** Field names whose codes read better under another name (a slug is a slug, `long` is B's url). */
const FIELD_CODES: Record<string, string> = { customSlug: 'SLUG', long: 'URL', shortPath: 'SHORT_PATH' };

const codeOf = (field: string): string =>
  FIELD_CODES[field] ?? field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();

/** Schema failures become `MISSING_<FIELD>` or `INVALID_<FIELD>`, so each field has one stable code. */
function fromValidation(issues: ValidationIssue[], context: string | undefined): AppError {
  const issue = issues[0]!;
  const segments = issue.instancePath.split('/').filter((s) => s !== '' && !/^\d+$/.test(s));
  const where = context ?? 'request';
  if (issue.keyword === 'required') {
    const field = String((issue.params as { missingProperty?: string }).missingProperty ?? 'field');
    if (field === 'url' || field === 'long') return new AppError(400, 'MISSING_URL', 'URL is required');
    return new AppError(400, `MISSING_${codeOf(field)}`, `${where}: ${field} is required`);
  }
  const field = segments.at(-1);
  if (!field) return new AppError(400, 'INVALID_BODY', `${where} ${issue.message ?? 'is invalid'}`);
  return new AppError(400, `INVALID_${codeOf(field)}`, `${where}: ${field} ${issue.message ?? 'is invalid'}`);
}

const FASTIFY_CODES: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'BODY_TOO_LARGE', 'The request body is too large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'INVALID_BODY', 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_BODY', 'The JSON body is empty'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'The body is not valid JSON'],
};

export function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return fromValidation(fastifyError.validation, fastifyError.validationContext);
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) return new AppError(...known);
  if (error instanceof SyntaxError || (fastifyError.statusCode === 400 && /JSON/i.test(error.message))) {
    return new AppError(400, 'INVALID_JSON', 'The body is not valid JSON');
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) return new AppError(status, 'BAD_REQUEST', error.message);
  return new AppError(500, 'INTERNAL_ERROR', 'Internal server error');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError | AppError, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    // A request refused for a limit (the daily link limit, checked after the request was counted) costs nothing.
    if (appError.status === 429) await request.refundUsage?.();
    reply.headers(appError.headers);
    // Description B's only documented error body is its rate-limit one: {error: <text>, code}.
    if (appError.status === 429 && request.routeOptions.config?.surface === 'B') {
      return reply.status(429).send({ error: appError.message, code: appError.code });
    }
    return reply.status(appError.status).send({ error: true, message: appError.message, code: appError.code });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: true, message: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND' }),
  );
  // An empty body on a JSON request is read as {}, so "no url" gets MISSING_URL rather than a parser error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Only JSON bodies are accepted; anything else (text/plain included) is 415 UNSUPPORTED_MEDIA_TYPE.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.toString().trim() === '') return done(null, {});
    return parseJson(request, body.toString(), done);
  });
}
