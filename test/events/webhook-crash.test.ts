// Crash safety: the real server is killed with SIGKILL several times while it writes clients
// and delivers their events; after a restart every event whose write was acknowledged must have
// reached the receiver at least once, and every copy of an event carries the same webhook-id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer } from '../../src/container.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { Receiver, verify } from '../helpers/receiver.ts';
import { freePort, ServerProcess } from '../helpers/server-process.ts';
import { sleep, waitUntil } from '../helpers/wait.ts';

const KILLS = 3;
let db: TestDatabase;
let receiver: Receiver;
let server: ServerProcess;
let key: string;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await Receiver.start();
  const runtime = await createContainer(testConfig(db));
  const org = await runtime.services.orgs.createOrg('Crash test');
  key = (await runtime.services.orgs.createKey(org.id, ['read', 'write'], 'crash')).key;
  await runtime.close();
  server = new ServerProcess(await freePort(), {
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : { DATA_DIR: db.dataDir }),
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0ms,100ms,200ms,500ms,1s,1s,1s,1s,1s,1s',
    // A lease is 2 x timeout + 1 s: deliveries a killed server held are sent again 3 s later.
    WEBHOOK_TIMEOUT: '1s',
    WEBHOOK_POLL_INTERVAL: '50ms',
    RATE_LIMIT_QUOTA: '1000000',
    LOG_LEVEL: 'warn',
  });
  await server.start();
}, 30_000);

afterAll(async () => {
  await server?.kill();
  await receiver?.close();
  await db?.drop();
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

describe(`crash safety (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('delivers every acknowledged event at least once across SIGKILLs', async () => {
    const secrets: string[] = [];
    for (const path of ['/a', '/b']) {
      // Slow answers keep deliveries in flight when the kill comes.
      receiver.on(path, () => ({ delayMs: 30 }));
      const res = await api('POST', '/webhooks', { url: receiver.url(path), events: ['client.created'] });
      secrets.push(((await res.json()) as any).webhook.secret);
    }

    const acknowledged = new Set<string>();
    let writing = true;
    let n = 0;
    const writer = async () => {
      while (writing) {
        try {
          const res = await api('POST', '/clients', { email: `crash-${++n}@example.com` });
          if (res.status === 201) acknowledged.add(((await res.json()) as any).client.id);
        } catch {
          await sleep(20); // the server is down: try again until it is back
        }
      }
    };
    const writers = Array.from({ length: 4 }, writer);

    const inFlightAtKill: number[] = [];
    for (let i = 0; i < KILLS; i++) {
      await sleep(600 + Math.random() * 400);
      // Kill while deliveries are in flight: on a busy machine the restarted server may take longer
      // than the pause to deliver again, and a kill with nothing in flight would prove nothing.
      await waitUntil(() => receiver.waiting > 0, 15_000, 'a delivery in flight');
      inFlightAtKill.push(receiver.waiting);
      await server.kill('SIGKILL');
      await server.start();
    }
    await sleep(500);
    writing = false;
    await Promise.all(writers);

    const delivered = new Map<string, Set<string>>();
    await waitUntil(
      () => {
        delivered.clear();
        for (const r of receiver.received) {
          const key = `${r.path} ${r.json.data.client.id}`;
          delivered.set(key, (delivered.get(key) ?? new Set()).add(String(r.headers['webhook-id'])));
        }
        return [...acknowledged].every((id) => delivered.has(`/a ${id}`) && delivered.has(`/b ${id}`));
      },
      30_000,
      'every acknowledged event at both endpoints',
    );

    expect(acknowledged.size).toBeGreaterThan(50);
    expect(inFlightAtKill.some((count) => count > 0)).toBe(true);
    for (const r of receiver.received) verify(secrets[r.path === '/a' ? 0 : 1]!, r);
    // Duplicates (sent again after a kill) share their webhook-id; distinct events never do.
    for (const ids of delivered.values()) expect(ids.size).toBe(1);
    const idsAtA = [...delivered].filter(([k]) => k.startsWith('/a ')).map(([, ids]) => [...ids][0]);
    expect(new Set(idsAtA).size).toBe(idsAtA.length);
    const duplicates = receiver.received.length - delivered.size;
    console.log(
      `crash test: ${acknowledged.size} acknowledged writes, ${receiver.received.length} deliveries, ${duplicates} duplicates, in flight at each kill: ${inFlightAtKill.join(', ')}`,
    );
  }, 90_000);

  it('on SIGTERM lets attempts in flight finish and records them before exiting', async () => {
    receiver.on('/slow', () => ({ delayMs: 700 }));
    const hook = (await (
      await api('POST', '/webhooks', { url: receiver.url('/slow'), events: ['client.updated'] })
    ).json()) as any;
    const { client } = (await (
      await api('POST', '/clients', { email: 'graceful@example.com' })
    ).json()) as any;
    await api('PATCH', `/clients/${client.id}`, { name: 'Graceful' });
    await waitUntil(
      () => receiver.waiting > 0 && receiver.at('/slow').length === 1,
      5_000,
      'the attempt to be in flight',
    );
    await server.kill('SIGTERM');
    const runtime = await createContainer(testConfig(db));
    try {
      const rows = await runtime.database.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', hook.webhook.id)
        .execute();
      expect(rows).toMatchObject([{ status: 'succeeded', attempt_count: 1, lease_token: null }]);
    } finally {
      await runtime.close();
    }
  });
});
