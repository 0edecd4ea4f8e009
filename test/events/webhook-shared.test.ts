// Several instances share one PostgreSQL database: two runtimes, each with its own pool and
// dispatcher, split the work; FOR UPDATE SKIP LOCKED and leases keep every delivery to exactly
// one attempt when nothing fails. (On SQLite a second dispatcher runs in its own process, as
// `sitewright worker`; two writers in one process would only wait on each other's locks.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type Dispatcher } from '../../src/events/dispatcher.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { Receiver } from '../helpers/receiver.ts';
import { sleep } from '../helpers/wait.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const EVENTS = 300;
const ENDPOINTS = 3;
const env = {
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0ms,100ms',
  WEBHOOK_TIMEOUT: '2s',
  WEBHOOK_POLL_INTERVAL: '10ms',
};

describe.skipIf(!onPostgres)(
  onPostgres
    ? 'two instances sharing PostgreSQL'
    : 'two instances sharing PostgreSQL (skipped: set TEST_DATABASE_URL to run it)',
  () => {
    let db: TestDatabase;
    let receiver: Receiver;
    const runtimes: Container[] = [];
    const dispatchers: Dispatcher[] = [];

    beforeAll(async () => {
      db = await createTestDatabase();
      receiver = await Receiver.start();
      for (let i = 0; i < 2; i++) runtimes.push(await createContainer(testConfig(db, env)));
    });
    afterAll(async () => {
      await Promise.all(dispatchers.map((d) => d.stop(1_000)));
      for (const r of runtimes) await r.close();
      await receiver?.close();
      await db?.drop();
    });

    it('share the deliveries without losing or double-sending any', async () => {
      const [a, b] = runtimes as [Container, Container];
      const org = await a.services.orgs.createOrg('Shared');
      const webhooks = a.services.webhooks;
      for (let i = 0; i < ENDPOINTS; i++) {
        receiver.on(`/s${i}`, () => ({ delayMs: 5 }));
        await webhooks.create(systemPrincipal(org.id), {
          url: receiver.url(`/s${i}`),
          events: ['client.created'],
        });
      }
      for (const r of runtimes) dispatchers.push(createDispatcher(r.database, r.config));
      for (const d of dispatchers) d.start();

      // Both instances write, as two API servers behind a load balancer would.
      await Promise.all(
        Array.from({ length: EVENTS }, (_, i) =>
          (i % 2 ? a : b).database.db
            .transaction()
            .execute((trx) =>
              recordEvent(trx, { orgId: org.id, type: 'client.created', data: { client: { id: `c${i}` } } }),
            ),
        ),
      );
      const deadline = Date.now() + 20_000;
      while (receiver.received.length < EVENTS * ENDPOINTS && Date.now() < deadline) await sleep(20);
      await sleep(300); // anything sent twice would arrive now

      const seen = receiver.received.map((r) => `${r.path} ${r.headers['webhook-id']}`);
      expect(seen).toHaveLength(EVENTS * ENDPOINTS);
      expect(new Set(seen).size).toBe(EVENTS * ENDPOINTS);
      const [sa, sb] = dispatchers.map((d) => d.stats.attempts) as [number, number];
      expect(sa + sb).toBe(EVENTS * ENDPOINTS);
      expect(sa).toBeGreaterThan(0);
      expect(sb).toBeGreaterThan(0);
      console.log(`shared dispatchers: ${sa} and ${sb} attempts`);
    }, 40_000);
  },
);
