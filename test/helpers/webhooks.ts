import { expect } from 'vitest';
import type { TestApp, TestUser } from './app.js';
import type { CreatedWebhook, Delivery } from './webhook-shapes.js';

const HOOKS_A = '/api/v1/webhooks';

/** Creates a webhook over A as `user`; fails the test unless it answers 201. */
export async function createWebhook(t: TestApp, user: TestUser, url: string, events: string[]): Promise<CreatedWebhook> {
  const res = await t.as(user, { method: 'POST', url: HOOKS_A, payload: { url, events } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedWebhook>();
}

/** The delivery log of a webhook over A (`query`: e.g. `?limit=100`). */
export async function deliveries(t: TestApp, user: TestUser, hookId: string, query = ''): Promise<Delivery[]> {
  const res = await t.as(user, { method: 'GET', url: `${HOOKS_A}/${hookId}/deliveries${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ deliveries: Delivery[] }>().deliveries;
}
