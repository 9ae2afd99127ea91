import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { toLink } from '../../src/links/link.js';
import type { LinkRow } from '../../src/links/link-row.js';
import { dialectName, sharedDatabase, startApp, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { startReceiver, waitFor, type Receiver } from '../helpers/receiver.js';
import type { CreatedWebhook } from '../helpers/webhook-shapes.js';
import { createWebhook, deliveries } from '../helpers/webhooks.js';

/**
 * The transactional outbox: a change writes its webhook events in its own transaction (outbox_events), and a
 * relay fans committed events out into deliveries. A change and its events commit or vanish together, an event
 * committed before a shutdown is delivered after the restart, and instances sharing a database relay it once.
 */

const LINKS = '/api/v1/links';

async function createLink(t: TestApp, user: TestUser, url: string): Promise<string> {
  const res = await t.as(user, { method: 'POST', url: LINKS, payload: { url } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ shortCode: string }>().shortCode;
}

const count = async (db: Kysely<Database>, table: 'outbox_events' | 'links' | 'webhook_deliveries', where?: { column: string; value: string }): Promise<number> => {
  const filter = where ? sql` where ${sql.ref(where.column)} = ${where.value}` : sql``;
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}${filter}`.execute(db);
  return Number(rows[0]!.n);
};

/** Makes every insert into outbox_events fail, as a full disk or a lost connection would at that moment. */
async function refuseEvents(db: Kysely<Database>, refuse: boolean): Promise<void> {
  if (dialectName === 'sqlite') {
    if (refuse) await sql`create trigger refuse_events before insert on outbox_events begin select raise(abort, 'no events today'); end`.execute(db);
    else await sql`drop trigger refuse_events`.execute(db);
    return;
  }
  if (refuse) {
    await sql`create or replace function refuse_events() returns trigger as $$ begin raise exception 'no events today'; end $$ language plpgsql`.execute(db);
    await sql`create trigger refuse_events before insert on outbox_events for each row execute function refuse_events()`.execute(db);
  } else {
    await sql`drop trigger refuse_events on outbox_events`.execute(db);
  }
}

describe(`a change and its events commit or vanish together (${dialectName})`, () => {
  const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  const user = t.user('pro');
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('a transaction that fails after the event was appended leaves neither the link nor the event', async () => {
    const db = t.core.database.db;
    const code = await createLink(t, user, 'https://example.com/first');
    const taken = (await db.selectFrom('links').selectAll().where('code', '=', code).executeTakeFirstOrThrow()) as LinkRow;
    const fresh: LinkRow = { ...taken, id: `lnk_outbox_${Date.now()}`, code: `ob${Date.now().toString(36).slice(-6)}` };
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('links').values(fresh).execute();
        await t.core.outbox.append(trx, [{ event: 'link.created', payload: { link: toLink(fresh) } }]);
        // The same code again: a unique violation after the event was written.
        await trx.insertInto('links').values({ ...fresh, id: `${fresh.id}_2` }).execute();
      }),
    ).rejects.toThrow();
    expect(await count(db, 'links', { column: 'id', value: fresh.id })).toBe(0);
    const events = await db.selectFrom('outbox_events').select('id').where('body', 'like', `%${fresh.id}%`).execute();
    expect(events).toHaveLength(0);
    // The same steps committed leave both: the event was really written in that transaction.
    const kept: LinkRow = { ...fresh, id: `${fresh.id}_kept`, code: `${fresh.code}k` };
    await t.core.relay.stop();
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('links').values(kept).execute();
        await t.core.outbox.append(trx, [{ event: 'link.created', payload: { link: toLink(kept) } }]);
      });
      expect(await count(db, 'links', { column: 'id', value: kept.id })).toBe(1);
      expect(await db.selectFrom('outbox_events').select('event').where('body', 'like', `%${kept.id}%`).execute()).toEqual([{ event: 'link.created' }]);
    } finally {
      t.core.relay.start();
    }
    // Relayed before the next test makes a webhook for the same account: an event is fanned out to the webhooks
    // subscribed when it is relayed, and on PostgreSQL a relay still running then gave the next test a second
    // link.created (this one's) to count.
    await waitFor('the outbox emptied', async () => (await count(db, 'outbox_events')) === 0);
  });

  it('when the event cannot be written, the create, update and delete fail whole and nothing is delivered', async () => {
    const db = t.core.database.db;
    const url = receiver.endpoint('/refused', 200);
    const hook = await createWebhook(t, user, url, ['link.created', 'link.updated', 'link.deleted']);
    const code = await createLink(t, user, 'https://example.com/kept');
    await waitFor('the link.created delivery', () => receiver.to('/refused').length === 1);

    await refuseEvents(db, true);
    try {
      const created = await t.as(user, { method: 'POST', url: LINKS, payload: { url: 'https://example.com/never' } });
      expect(created.statusCode).toBe(500);
      const updated = await t.as(user, { method: 'PATCH', url: `${LINKS}/${code}`, payload: { url: 'https://example.com/changed' } });
      expect(updated.statusCode).toBe(500);
      const deleted = await t.as(user, { method: 'DELETE', url: `${LINKS}/${code}` });
      expect(deleted.statusCode).toBe(500);
    } finally {
      await refuseEvents(db, false);
    }

    // Nothing of the three changes stayed: no new link, the old one unchanged and still there.
    expect(await count(db, 'links', { column: 'url', value: 'https://example.com/never' })).toBe(0);
    const still = await t.as(user, { method: 'GET', url: `${LINKS}/${code}` });
    expect(still.statusCode).toBe(200);
    const row = await db.selectFrom('links').select('url').where('code', '=', code).executeTakeFirstOrThrow();
    expect(row.url).toBe('https://example.com/kept');

    // The next change goes through with its event, and only that one is delivered after the first.
    const again = await t.as(user, { method: 'PATCH', url: `${LINKS}/${code}`, payload: { url: 'https://example.com/changed' } });
    expect(again.statusCode, again.body).toBe(200);
    await waitFor('the link.updated delivery', () => receiver.to('/refused').length === 2);
    const events = receiver.to('/refused').map((r) => r.headers['x-snip-event']);
    expect(events).toEqual(['link.created', 'link.updated']);
    await waitFor('the outbox emptied', async () => (await count(db, 'outbox_events')) === 0);
    expect((await deliveries(t, user, hook.id, '?limit=100')).map((d) => d.event).sort()).toEqual(['link.created', 'link.updated']);
  });
  it('click events are written in the click batch\'s transaction: a failed batch leaves no clicks and no events, its retry both once', async () => {
    const db = t.core.database.db;
    const url = receiver.endpoint('/clicks', 200);
    await createWebhook(t, user, url, ['link.click']);
    const code = await createLink(t, user, 'https://example.com/clicked');
    const clicks = async () => Number((await db.selectFrom('links').select('clicks').where('code', '=', code).executeTakeFirstOrThrow()).clicks);

    await refuseEvents(db, true);
    try {
      const visit = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' } });
      expect(visit.statusCode).toBe(302);
      // settle() returns after a commit attempt that failed (the batch stays queued for its retry).
      await t.core.clicks.settle();
      expect(await clicks()).toBe(0);
      expect(await db.selectFrom('outbox_events').select('id').where('event', '=', 'link.click').execute()).toHaveLength(0);
    } finally {
      await refuseEvents(db, false);
    }

    await t.core.clicks.settle();
    expect(await clicks()).toBe(1);
    const sent = await waitFor('the link.click delivery', () => receiver.to('/clicks').length === 1 && receiver.to('/clicks'));
    expect(sent[0]!.headers['x-snip-event']).toBe('link.click');
    expect(JSON.parse(sent[0]!.body.toString()).data).toMatchObject({ shortCode: code, destination: 'https://example.com/clicked' });
    await waitFor('the outbox emptied', async () => (await count(db, 'outbox_events')) === 0);
    expect(receiver.to('/clicks')).toHaveLength(1);
  });
});

describe(`committed events outlive the process that wrote them (${dialectName})`, () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('an event committed but not relayed when the app closes is delivered once after a restart on the same database', async () => {
    const shared = await sharedDatabase();
    const env = { ...shared.env, WEBHOOK_ALLOW_PRIVATE: 'true' };
    const url = receiver.endpoint('/restart', 200);
    try {
      const app1 = await startApp(env);
      const user = await app1.createUser('pro');
      let hook: CreatedWebhook;
      let code: string;
      try {
        hook = await createWebhook(app1, user, url, ['link.created']);
        // The relay stops as a crash would stop it: the event is committed with the link and waits.
        await app1.core.relay.stop();
        code = await createLink(app1, user, 'https://example.com/restart');
        expect(await count(app1.core.database.db, 'outbox_events')).toBe(1);
        expect(await count(app1.core.database.db, 'webhook_deliveries')).toBe(0);
      } finally {
        await app1.close();
      }
      expect(receiver.to('/restart')).toHaveLength(0);

      const app2 = await startApp(env);
      try {
        const done = await waitFor('the delivery logged as delivered', async () => (await deliveries(app2, user, hook.id, '?limit=100')).find((d) => d.status === 'delivered'));
        // Exactly once: the event left the outbox as its one delivery was made, and that delivery was sent once.
        expect(await count(app2.core.database.db, 'outbox_events')).toBe(0);
        expect(await deliveries(app2, user, hook.id, '?limit=100')).toHaveLength(1);
        const sent = receiver.to('/restart');
        expect(sent).toHaveLength(1);
        expect(sent[0]!.headers['x-snip-delivery']).toBe(done.id);
        expect(sent[0]!.headers['x-snip-event']).toBe('link.created');
        expect(JSON.parse(sent[0]!.body.toString()).data.shortCode).toBe(code);
      } finally {
        await app2.close();
      }
    } finally {
      await shared.cleanup();
    }
  });
});

describe(`two instances relay each event once (${dialectName})`, () => {
  let receiver: Receiver;
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    shared = await sharedDatabase();
    const env = { ...shared.env, WEBHOOK_ALLOW_PRIVATE: 'true' };
    apps.push(await startApp(env), await startApp(env));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await shared?.cleanup();
    await receiver?.close();
  });

  it('events written by both instances and relayed by both at once make one delivery each', async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const user = await a.createUser('pro');
    const hook = await createWebhook(b, user, receiver.endpoint('/two', 200), ['link.created']);
    // Both relays held, so the events pile up and the two relays then race for the same rows.
    await Promise.all([a.core.relay.stop(), b.core.relay.stop()]);
    const bulk = (app: TestApp, tag: string) =>
      app.as(user, { method: 'POST', url: '/api/bulk', payload: { urls: Array.from({ length: 40 }, (_, i) => ({ url: `https://example.com/${tag}/${i}` })) } });
    const [fromA, fromB] = await Promise.all([bulk(a, 'a'), bulk(b, 'b')]);
    expect(fromA.statusCode, fromA.body).toBe(200);
    expect(fromB.statusCode, fromB.body).toBe(200);
    expect(await count(a.core.database.db, 'outbox_events')).toBe(80);

    // On PostgreSQL both relays run at once and SKIP LOCKED splits the rows between them. SQLite has one writer at a
    // time: two connections of one process cannot both be inside a write transaction, so there they take turns
    // (separate processes wait on the lock), and the second finds the rows the first relayed gone.
    const [takenByA, takenByB] =
      dialectName === 'postgres' ? await Promise.all([a.core.relay.relayNow(), b.core.relay.relayNow()]) : [await a.core.relay.relayNow(), await b.core.relay.relayNow()];
    expect(takenByA + takenByB).toBe(80);
    a.core.relay.start();
    b.core.relay.start();

    await waitFor('80 deliveries', () => receiver.to('/two').length >= 80, 15_000);
    await waitFor('every delivery logged as delivered', async () => (await deliveries(a, user, hook.id, '?limit=100')).filter((d) => d.status === 'delivered').length === 80);
    expect(await count(a.core.database.db, 'outbox_events')).toBe(0);
    expect(await count(a.core.database.db, 'webhook_deliveries', { column: 'webhook_id', value: hook.id })).toBe(80);
    const sent = receiver.to('/two');
    expect(sent).toHaveLength(80);
    const links = sent.map((r) => JSON.parse(r.body.toString()).data.destination as string);
    expect(new Set(links).size).toBe(80);
    expect(new Set(sent.map((r) => r.headers['x-snip-delivery'])).size).toBe(80);
  });
});
