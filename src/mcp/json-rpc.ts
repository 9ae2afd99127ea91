import { Type } from '@sinclair/typebox';
import type { AppError } from '../errors.js';

/** A JSON-RPC request's id, by which its answer is matched to it. */
export type RequestId = string | number;

/** JSON-RPC 2.0's error codes, and -32000, the server-defined one for refusals of the HTTP request (as the MCP SDK uses it). */
export const JSON_RPC_ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
} as const;

/** A JSON-RPC error response with no id: the answer to a POST refused as a whole, before any call in it ran. */
export interface JsonRpcRefusal {
  jsonrpc: '2.0';
  id: null;
  error: { code: number; message: string; data: { code: string } };
}

/** The schema of a `JsonRpcRefusal`, for each error status of POST /mcp (the OpenAPI lists it, Fastify serialises by it). */
export const JsonRpcRefusalSchema = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Null(),
    error: Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Object({ code: Type.String({ description: 'The stable code REST answers for the same refusal' }) }) }),
  },
  { description: 'The POST refused as a whole: a JSON-RPC error response with no id' },
);

/**
 * A refusal of the whole POST as JSON-RPC, whatever refused it (the host check, the Origin check, the key, the body
 * parser, a batch that cannot be answered, the rate limits): every answer on /mcp is JSON-RPC, and `data.code` is
 * the stable code REST answers for the same refusal. The HTTP status stays REST's, as the MCP transport asks for
 * ("an HTTP error status code ... the body MAY comprise a JSON-RPC error response that has no id").
 */
export function refusalOf(error: AppError): JsonRpcRefusal {
  const data = { code: error.code };
  const answer = (code: number, message: string): JsonRpcRefusal => ({ jsonrpc: '2.0', id: null, error: { code, message, data } });
  if (error.code === 'INVALID_JSON') return answer(JSON_RPC_ERROR.parseError, `Parse error: ${error.message}`);
  if (error.status === 400) return answer(JSON_RPC_ERROR.invalidRequest, `Invalid Request: ${error.message}`);
  if (error.status >= 500) return answer(JSON_RPC_ERROR.internalError, `Internal error: ${error.message}`);
  return answer(JSON_RPC_ERROR.serverError, error.message);
}

/**
 * One call's arguments cannot be taken (nested past the bound): thrown from a request handler, the SDK answers it as
 * JSON-RPC error -32602 with the call's id (it reads `code`, `message` and `data`), and the other calls of a batch run.
 */
export class InvalidParams extends Error {
  readonly code = JSON_RPC_ERROR.invalidParams;

  constructor(
    message: string,
    readonly data: { code: string },
  ) {
    super(message);
    this.name = 'InvalidParams';
  }
}
