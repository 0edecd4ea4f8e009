// Webhook delivery benchmark: 10 endpoints on a local receiver, one of which never answers (every
// attempt to it times out). Reports, for the 9 healthy endpoints, deliveries per second and the
// event-to-delivery latency (event timestamp to the receiver reading the request).
//
//   npm run bench:webhooks                                  SQLite (synchronous=FULL, as shipped)
//   TEST_DATABASE_URL=postgres://... npm run bench:webhooks  SQLite, then PostgreSQL in a scratch database
//   DATABASE_URL=postgres://... npm run bench:webhooks       SQLite, then that PostgreSQL database
//
// BENCH_RATE (events/s in the steady phase, default 60 = 540 healthy deliveries/s), BENCH_SECONDS
// (default 10), BENCH_BURST (events in the throughput phase, default 2000), BENCH_TIMEOUT (the
// delivery timeout, default 2s so the dead endpoint's attempts fail during the run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { createDispatcher } from '../src/events/dispatcher.ts';
import { recordEvent } from '../src/events/outbox.ts';
import { createContainer, type Container } from '../src/container.ts';
import { BenchReceiver } from './webhook-receiver.ts';
import { systemPrincipal } from '../src/modules/access/principal.ts';

const RATE = Number(process.env.BENCH_RATE ?? 60);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 2000);
const TIMEOUT = process.env.BENCH_TIMEOUT ?? '2s';
const HEALTHY = 9;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function clientData(i: number) {
  return {
    client: {
      id: crypto.randomUUID(),
      email: `bench-${i}@example.com`,
      name: `Client ${i}`,
      company: 'Bench Co',
      status: 'invited',
      plan_id: null,
      payment_status: 'none',
      created_at: new Date().toISOString(),
    },
  };
}

async function emit(runtime: Container, orgId: string, from: number, count: number): Promise<void> {
  await runtime.database.db.transaction().execute(async (trx) => {
    for (let i = from; i < from + count; i++)
      await recordEvent(trx, { orgId, type: 'client.created', data: clientData(i) });
  });
}

async function waitForHealthy(
  receiver: BenchReceiver,
  expected: number,
  seen: { healthy: number; latencies: number[] },
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (seen.healthy < expected && Date.now() < deadline) {
    await sleep(10);
    const s = await receiver.stats();
    seen.healthy = s.healthy;
    seen.latencies.push(...s.latencies);
  }
  if (seen.healthy < expected)
    throw new Error(`only ${seen.healthy} of ${expected} healthy deliveries arrived`);
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const receiver = await BenchReceiver.start();
  const config = loadConfig({
    ...env,
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT: TIMEOUT,
    LOG_LEVEL: 'silent',
    PORT: '3000',
  });
  const runtime = await createContainer(config);
  const org = await runtime.services.orgs.createOrg(`bench ${Date.now()}`);
  const webhooks = runtime.services.webhooks;
  for (let i = 0; i < HEALTHY; i++)
    await webhooks.create(systemPrincipal(org.id), {
      url: receiver.url(`/hook/${i}`),
      events: ['client.created'],
    });
  await webhooks.create(systemPrincipal(org.id), {
    url: receiver.url('/hook/dead'),
    events: ['client.created'],
  });
  const dispatcher = createDispatcher(runtime.database, config);
  dispatcher.start();

  // Steady phase: one transaction per event, as API writes make them.
  const seen = { healthy: 0, latencies: [] as number[] };
  const started = Date.now();
  let emitted = 0;
  while (Date.now() - started < SECONDS * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * RATE);
    for (; emitted < due; emitted++) await emit(runtime, org.id, emitted, 1);
    await sleep(5);
  }
  await waitForHealthy(receiver, emitted * HEALTHY, seen);
  const steadySeconds = (Date.now() - started) / 1000;
  const sorted = seen.latencies.sort((a, b) => a - b);

  // Burst phase: a backlog of events, 50 per transaction, delivered as fast as the dispatcher can.
  const burstStart = Date.now();
  for (let i = 0; i < BURST; i += 50) await emit(runtime, org.id, emitted + i, Math.min(50, BURST - i));
  const burst = { healthy: seen.healthy, latencies: [] as number[] };
  await waitForHealthy(receiver, (emitted + BURST) * HEALTHY, burst);
  const burstSeconds = (Date.now() - burstStart) / 1000;
  const dead = (await receiver.stats()).dead;

  await dispatcher.stop(0);
  await runtime.close();
  await receiver.close();

  console.log(`\n${label}`);
  console.log(
    `  steady: ${emitted} events at ${RATE}/s -> ${seen.healthy} healthy deliveries in ${steadySeconds.toFixed(1)} s (${(seen.healthy / steadySeconds).toFixed(0)}/s)`,
  );
  console.log(
    `          event-to-delivery p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted[sorted.length - 1]} ms`,
  );
  console.log(
    `  burst:  ${BURST} events -> ${BURST * HEALTHY} healthy deliveries in ${burstSeconds.toFixed(2)} s = ${((BURST * HEALTHY) / burstSeconds).toFixed(0)} deliveries/s`,
  );
  console.log(
    `  dead endpoint: ${dead} attempts reached it, each timing out after ${TIMEOUT}; dispatcher recorded ${dispatcher.stats.failed} failed attempts`,
  );
}

async function main(): Promise<void> {
  console.log(
    `webhook delivery benchmark: 9 healthy endpoints + 1 that never answers; node ${process.version}`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'sitewright-bench-'));
  try {
    await run('SQLite (synchronous=FULL)', { DATA_DIR: dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (process.env.DATABASE_URL)
    return run('PostgreSQL (DATABASE_URL)', { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: dataDir });
  if (!process.env.TEST_DATABASE_URL) return;
  const name = `sw_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  try {
    await run('PostgreSQL (scratch database)', { DATABASE_URL: url.toString(), DATA_DIR: dataDir });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
