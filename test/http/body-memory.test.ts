// Oversized bodies leave no memory behind. Five 100 MB chunked publishes at once are each refused
// (413) once past the route's limit, and the real server, started with the environment `npm start`
// gives it, goes back to within 50 MiB of its resident memory before them. Without the body
// blocks (src/http/body-blocks.ts) glibc kept tens of MB of small body pieces in its heap; without
// the start script's GLIBC_TUNABLES the blocks themselves stayed there (150-250 MiB above where the
// process began); without the collection asked for after a large body, a quiet server held up to
// ~70 MB of dead blocks until V8 next collected on its own.
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer } from '../../src/container.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { freePort, ServerProcess } from '../helpers/server-process.ts';
import { sleep, waitUntil } from '../helpers/wait.ts';

const UPLOADS = 5;
const CHUNKS = 1_600; // x 64 KiB: 100 MiB if nobody stopped it
const MAX_RSS_LEFT_MIB = 50;

/** What `npm start` puts before `node bin/sitewright.js start`, read from package.json so the test runs what users run. */
function startScriptTunables(): string {
  const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    .scripts as Record<string, string>;
  const match = /GLIBC_TUNABLES=\$\{GLIBC_TUNABLES:-([^}]+)\}/.exec(scripts.start!);
  if (!match) throw new Error(`package.json's start script sets no GLIBC_TUNABLES: ${scripts.start}`);
  return match[1]!;
}

function rssMib(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

let db: TestDatabase;
let server: ServerProcess;
let key: string;
let projectId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const runtime = await createContainer(testConfig(db));
  const org = await runtime.services.orgs.createOrg('Uploads');
  key = (await runtime.services.orgs.createKey(org.id, ['read', 'write'], 'uploads')).key;
  await runtime.close();
  server = new ServerProcess(await freePort(), {
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : { DATA_DIR: db.dataDir }),
    GLIBC_TUNABLES: startScriptTunables(),
    LOG_LEVEL: 'warn',
  });
  await server.start();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  await fetch(`${server.url}/api/v1/clients`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'C', email: 'c@example.com' }),
  });
  const created = await fetch(`${server.url}/api/v1/projects`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ client_email: 'c@example.com', name: 'Big' }),
  });
  projectId = ((await created.json()) as { project: { id: string } }).project.id;
}, 60_000);

afterAll(async () => {
  await server?.kill();
  await db?.drop();
});

/** A chunked publish of a 100 MiB file, sent until the server answers or closes; resolves with its status line. */
function oversizedPublish(): Promise<string> {
  return new Promise((resolve) => {
    const piece = Buffer.alloc(64 * 1024, 'a').toString('latin1');
    const start = '{"builtFiles":{"index.html":"';
    let answer = '';
    let sent = 0;
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(
        `POST /api/v1/projects/${projectId}/publish HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${start.length.toString(16)}\r\n${start}\r\n`,
      );
      const pump = () => {
        while (!answer && sent < CHUNKS) {
          sent++;
          if (!socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`))
            return void socket.once('drain', pump);
        }
      };
      pump();
    });
    socket.on('data', (data) => (answer += data));
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', () => {}); // the server closes while we still write: 'close' follows
  });
}

describe('memory after oversized bodies', () => {
  it(`returns to within ${MAX_RSS_LEFT_MIB} MiB of where it was after ${UPLOADS} concurrent 100 MiB publishes`, async () => {
    const pid = server.pid!;
    // Warm up what any first requests load, then settle.
    for (let i = 0; i < 20; i++)
      await fetch(`${server.url}/api/v1/projects`, { headers: { authorization: `Bearer ${key}` } });
    await sleep(1_000);
    const before = rssMib(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMib(pid))), 20);
    const answers = await Promise.all(Array.from({ length: UPLOADS }, oversizedPublish));
    clearInterval(sampler);
    // Each is refused; a client still writing when the server closes may see the close before the 413.
    for (const status of answers) expect(['', 'HTTP/1.1 413 Payload Too Large']).toContain(status);
    expect(answers).toContain('HTTP/1.1 413 Payload Too Large');
    let after = rssMib(pid);
    await waitUntil(
      async () => (after = rssMib(pid)) - before <= MAX_RSS_LEFT_MIB,
      40_000,
      'resident memory to come back',
    ).catch(() => {});
    console.log(`RSS ${before.toFixed(0)} MiB -> peak ${peak.toFixed(0)} -> ${after.toFixed(0)} MiB`);
    expect(after - before).toBeLessThanOrEqual(MAX_RSS_LEFT_MIB);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  }, 120_000);
});
