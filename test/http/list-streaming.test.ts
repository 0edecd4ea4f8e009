// GET /clients without parameters answers every record, and must stay safe at any count: the real
// server (a child process, so its memory can be read) sends 100,000 clients while /healthz keeps
// answering within 100 ms, and its resident memory grows by a bounded amount, far below the size
// of the body. Before the body was streamed, one such call built 110 MB in memory, blocked the
// event loop for seconds and took the process past 1 GB.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer } from '../../src/container.ts';
import { insertClients, type NewClientRow } from '../../src/modules/clients/repo.ts';
import { newId } from '../../src/lib/ids.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { freePort, ServerProcess } from '../helpers/server-process.ts';
import { sleep } from '../helpers/wait.ts';

const COUNT = 100_000;
const MAX_HEALTHZ_MS = 100;
// The body is ~25 MB; a server that held it (as a string, then a buffer) would grow by several times that.
const MAX_RSS_GROWTH_MB = 60;

let db: TestDatabase;
let server: ServerProcess;
let key: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const runtime = await createContainer(testConfig(db));
  const org = await runtime.services.orgs.createOrg('Big agency');
  key = (await runtime.services.orgs.createKey(org.id, ['read'], 'list')).key;
  const base = Date.parse('2024-01-01T00:00:00.000Z');
  const rows: NewClientRow[] = [];
  for (let i = 0; i < COUNT; i++) {
    const at = new Date(base + i * 1000).toISOString();
    const email = `client${i}@example.com`;
    rows.push({
      id: newId(),
      org_id: org.id,
      user_id: newId(),
      email,
      email_lower: email,
      name: `Client ${i}`,
      company: 'Acme Web Studio',
      status: 'active',
      plan_id: null,
      payment_status: 'none',
      created_at: at,
      updated_at: at,
    });
  }
  await runtime.database.db.transaction().execute((trx) => insertClients(trx, rows));
  // PostgreSQL plans by its statistics, which autovacuum brings up to date after a bulk insert
  // only some time later: without them the first walks sort instead of reading the index.
  if (onPostgres) await sql`analyze clients`.execute(runtime.database.db);
  await runtime.close();
  server = new ServerProcess(await freePort(), {
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : { DATA_DIR: db.dataDir }),
    RATE_LIMIT_QUOTA: '1000000',
    LOG_LEVEL: 'warn',
  });
  await server.start();
}, 120_000);

afterAll(async () => {
  probeAgent.destroy();
  await server?.kill();
  await db?.drop();
});

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) / 1024;
}

/**
 * GET `path` from another process, the body written to a file: the download's own work (23 MB of
 * chunks, garbage collection) must not stall this process, whose timers measure /healthz.
 */
function download(path: string, file: string): Promise<{ status: number; startedAt: number }> {
  const script = `
    const res = await fetch(process.argv[1], { headers: { authorization: process.argv[2] } });
    await require('node:stream/promises').pipeline(res.body, require('node:fs').createWriteStream(process.argv[3]));
    process.stdout.write(String(res.status));`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-e', `(async () => {${script}})()`, `${server.url}${path}`, `Bearer ${key}`, file],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const startedAt = performance.now();
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve({ status: Number(out), startedAt })
        : reject(new Error(`download exited with ${code}`)),
    );
  });
}

// Probes on one kept-alive connection, through node:http: nothing to load or set up mid-measurement.
const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
function healthz(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/healthz`, { agent: probeAgent }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`/healthz answered ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** One GET /clients of the whole list, with /healthz probed and the server's RSS sampled meanwhile. */
async function sendWholeList(file: string) {
  const pid = server.pid!;
  const before = rssMb(pid);
  let sending = true;
  const latencies: number[] = [];
  let peak = before;
  const probe = (async () => {
    while (sending) {
      const started = performance.now();
      await healthz();
      if (sending) latencies.push(performance.now() - started);
      peak = Math.max(peak, rssMb(pid));
      await sleep(5);
    }
  })();
  const list = await download('/api/v1/clients', file);
  const took = performance.now() - list.startedAt;
  sending = false;
  await probe;
  latencies.sort((a, b) => b - a);
  console.log(
    `${COUNT} clients in ${took.toFixed(0)} ms; /healthz x${latencies.length}, slowest ${latencies
      .slice(0, 5)
      .map((l) => l.toFixed(1))
      .join(', ')} ms; RSS ${before.toFixed(0)} -> peak ${peak.toFixed(0)} MB`,
  );
  return {
    status: list.status,
    slowest: latencies[0] ?? Infinity,
    probes: latencies.length,
    growth: peak - before,
  };
}

describe(`GET /clients with ${COUNT.toLocaleString('en')} clients (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('sends every record as valid JSON while /healthz answers within 100 ms, in bounded memory', async () => {
    const file = join(db.dataDir, 'clients.json');
    // Warm up what every request pays once (route compilation, the statements, the key lookup).
    expect((await download('/api/v1/clients?limit=100', file)).status).toBe(200);
    for (let i = 0; i < 5; i++) await healthz();
    await sleep(200);

    // On a machine shared with other work, the scheduler alone can hold a probe past 100 ms now
    // and then; a server that blocks does so on every run (building the whole body in one go took
    // 3.9 s here). So up to three runs, and the best one must keep every probe within the bound.
    const runs = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const run = await sendWholeList(file);
      runs.push(run);
      expect(run.status).toBe(200);
      // The list took long enough for the probes to prove something.
      expect(run.probes).toBeGreaterThanOrEqual(10);
      expect(run.growth).toBeLessThan(MAX_RSS_GROWTH_MB);
      if (run.slowest < MAX_HEALTHZ_MS) break;
    }
    expect(Math.min(...runs.map((r) => r.slowest))).toBeLessThan(MAX_HEALTHZ_MS);

    const text = readFileSync(file, 'utf8');
    const body = JSON.parse(text) as { clients: { id: string; email: string }[]; total: number };
    expect(Object.keys(body)).toEqual(['clients', 'total']);
    expect(body.total).toBe(COUNT);
    expect(body.clients).toHaveLength(COUNT);
    expect(new Set(body.clients.map((c) => c.id)).size).toBe(COUNT);
    // Newest first: client N-1 was created last.
    expect(body.clients[0]!.email).toBe(`client${COUNT - 1}@example.com`);
    expect(body.clients[COUNT - 1]!.email).toBe('client0@example.com');
  }, 60_000);
});
