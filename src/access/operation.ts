import type { ErrorCode } from '../errors.js';
import type { Policy } from './policy.js';

/**
 * One operation of the API, defined once and bound by every surface that offers it: REST A and B routes take their
 * access, error codes and operationId from it (`bind`, src/http/access.ts), MCP tools their policy (src/mcp/tool.ts),
 * and each binding calls the same service method. A surface adds only what the spec fixes for it: its path, its
 * argument and field names, its response shape, and the codes of its own input form (B's Base64 `long`).
 */
export interface Operation {
  /** The operationId: as it is where one description has the operation, with `A` or `B` appended where both do. */
  readonly id: string;
  /** Who may call it and what a call costs (src/access/policy.ts). */
  readonly policy: Policy;
  /** The catalogue codes its service may refuse with; the schema, access and framework codes are added per route. */
  readonly errors: readonly ErrorCode[];
}

export const operation = <const O extends Operation>(definition: O): O => definition;
