// `npm run bench:uploads`: the memory large uploads take. The server runs as `npm start` runs it;
// six 60 MB sites are published at once, as zip archives and then as `builtFiles` JSON, and the
// server's resident memory (VmRSS, sampled every 20 ms) is recorded: at rest one minute after
// start, the peak while they are received, and after. Target: a peak under 300 MB with five at
// once, the sixth answered 503 (LARGE_UPLOADS_AT_ONCE = 5), never a crash. SQLite (the bytes go
// through the same server code on PostgreSQL, whose own memory would not be the server's).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { systemPrincipal } from '../src/modules/access/principal.ts';
import { onCleanup, runBenchmark } from './lib/cleanup.ts';
import { APP_DIR, SERVER_CMD, productEnv } from './lib/product.ts';
import { freePort, startServer } from './lib/processes.ts';

const AT_ONCE = 6;
const FILES = 20;
const FILE_BYTES = 3_000_000; // 20 x 3 MB = 60 MB
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const log = (line: string) => console.log(line);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function rss(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** Samples `pid`'s RSS while `work` runs; returns its result and the peak. */
async function peakDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rss(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, rss(pid)) };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sw-bench-uploads-'));
  onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const settings = {
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    PROJECT_MAX_BYTES: String(64 * 1024 * 1024),
    LOG_LEVEL: 'warn',
  };
  const container = await createContainer(loadConfig({ ...settings, LOG_LEVEL: 'silent' }));
  const org = await container.services.orgs.createOrg('Upload Agency');
  const { key } = await container.services.orgs.createKey(org.id, ['read', 'write'], 'bench');
  await container.services.clients.create(systemPrincipal(org.id), { email: 'c@bench.test', name: 'Client' });
  const projects: string[] = [];
  for (let i = 0; i < AT_ONCE; i++) {
    const project = await container.services.projects.create(systemPrincipal(org.id), {
      client_email: 'c@bench.test',
      name: `Site ${i}`,
    });
    projects.push(project.id);
  }
  await container.close();

  // Text files (base64 of random bytes): compressible as real text is not, so the zip stays large.
  const files: Record<string, string> = { 'index.html': '<!doctype html><title>Big</title><h1>Big</h1>' };
  for (let i = 0; i < FILES; i++)
    files[`assets/part-${i}.txt`] = randomBytes((FILE_BYTES / 4) * 3).toString('base64');
  const zip = zipSync(Object.fromEntries(Object.entries(files).map(([p, t]) => [p, Buffer.from(t)])), {
    level: 1,
  });
  const json = Buffer.from(JSON.stringify({ builtFiles: files }));
  log(`site: ${FILES + 1} files, zip ${mb(zip.length)}, builtFiles JSON ${mb(json.length)}`);

  const server = await startServer({
    name: 'sitewright',
    cmd: SERVER_CMD,
    cwd: APP_DIR,
    env: productEnv(settings),
    port,
    cpus: '0-1',
    log: join(dataDir, 'server.log'),
    readyPath: '/healthz',
  });
  onCleanup(() => server.stop());
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  log(`idle RSS ${IDLE_SECONDS} s after start: ${mb(rss(server.pid))}`);

  const publishAll = (type: string, body: Uint8Array) =>
    Promise.all(
      projects.map(async (id) => {
        const res = await fetch(`${server.url}/api/v1/projects/${id}/publish`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': type },
          body: body as unknown as BodyInit,
        }).catch((error: Error) => ({ status: `failed: ${error.message}`, text: async () => '' }));
        return res.status;
      }),
    );
  for (const [form, type, body] of [
    ['zip archive', 'application/zip', zip],
    ['builtFiles JSON', 'application/json', json],
  ] as const) {
    const before = rss(server.pid);
    const { result, peak } = await peakDuring(server.pid, () => publishAll(type, body));
    await new Promise((r) => setTimeout(r, 5_000));
    const counts = result.reduce<Record<string, number>>(
      (all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }),
      {},
    );
    log(
      `${form}, ${AT_ONCE} at once: answers ${JSON.stringify(counts)}; RSS before ${mb(before)}, ` +
        `peak ${mb(peak)}, 5 s after ${mb(rss(server.pid))}`,
    );
  }
  return 0;
}

runBenchmark(main);
