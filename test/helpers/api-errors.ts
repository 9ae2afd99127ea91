import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** The body of every API error. */
export interface ErrorBody {
  error: boolean;
  message: string;
  code: string;
}

/** What an API error with `code` looks like: `{error: true, code, message}`, the message being any text. */
export const errorBody = (code: string) => ({ error: true, code, message: expect.any(String) });

/** Asserts an API error: the status and exactly the error body with `code`; `label` names the request on failure. */
export function expectError(res: LightMyRequestResponse, status: number, code: string, label?: string): void {
  expect(res.statusCode, label === undefined ? res.body : `${label}: ${res.body}`).toBe(status);
  expect(res.json(), label).toEqual(errorBody(code));
}
