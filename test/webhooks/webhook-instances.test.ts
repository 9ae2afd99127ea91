import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, sharedDatabase, startApp, type TestApp } from '../helpers/app.js';

/** Two instances on one database, both creating links and both delivering: no attempt may be sent twice. */
describe(`webhook deliveries shared by two instances (${dialectName})`, () => {
  const received: { delivery: string; attempt: string }[] = [];
  let receiver: http.Server;
  let port = 0;
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ delivery: String(req.headers['x-snip-delivery']), attempt: String(req.headers['x-snip-attempt']) });
        setTimeout(() => res.writeHead(200).end(), 5); // a slow receiver keeps both dispatchers busy at once
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as { port: number }).port;
    shared = await sharedDatabase();
    const env = { ...shared.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAYS_MS: '200,200,200' };
    apps.push(await startApp(env), await startApp(env));
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await shared.cleanup();
    receiver.close();
  });

  it('each delivery reaches the receiver exactly once, whichever instance sends it', async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const user = await a.createUser('pro');
    // The second instance sees the first one's account and webhook: they really share one database.
    const hook = await b.as(user, { method: 'POST', url: '/api/webhooks', payload: { url: `http://127.0.0.1:${port}/hook`, events: ['link.created'] } });
    expect(hook.statusCode).toBe(201);

    const bulk = (app: TestApp, tag: string) =>
      app.as(user, { method: 'POST', url: '/api/bulk', payload: { urls: Array.from({ length: 30 }, (_, i) => ({ url: `https://example.com/${tag}/${i}` })) } });
    const [fromA, fromB] = await Promise.all([bulk(a, 'a'), bulk(b, 'b')]);
    expect(fromA.statusCode).toBe(200);
    expect(fromB.statusCode).toBe(200);

    const deadline = Date.now() + 15_000;
    while (received.length < 60 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setTimeout(resolve, 300)); // room for a duplicate to show up

    expect(received).toHaveLength(60);
    expect(new Set(received.map((r) => r.delivery)).size).toBe(60);
    expect(received.every((r) => r.attempt === '1')).toBe(true);

    const log = await a.as(user, { url: `/api/v1/webhooks/${hook.json().id}/deliveries?limit=100` });
    const deliveries = log.json().deliveries as { status: string; attempts: number }[];
    expect(deliveries).toHaveLength(60);
    expect(deliveries.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });
});
