// `npm run bench:pages`: server time of the dashboard's pages with real data (issue: 1,000
// clients and 10,000 projects render in under 50 ms of server time per page). The server runs
// as `npm start` runs it, in its own process on its own core; wrk, on the other core, asks for one
// page at a time (one connection) with a signed-in session cookie. Server time per page is the
// server's CPU per request (all its threads) and the latency wrk sees; both are reported.
// SQLite by default; BENCH_DATABASE_URL=postgres://... runs on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';
import { onCleanup, runBenchmark } from './lib/cleanup.ts';
import { describeRun, requireCores } from './lib/machine.ts';
import { APP_DIR, SERVER_CMD, productEnv } from './lib/product.ts';
import { freePort, startServer } from './lib/processes.ts';
import { runWrk, WRK_DIR } from './lib/wrk.ts';
import { benchDatabases } from './api/databases.ts';
import { systemPrincipal } from '../src/modules/access/principal.ts';

const SIZES = { clients: 1_000, projects: 10_000 };
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TARGET_MS = 50;
const log = (line: string) => console.log(line);

async function seed(env: Record<string, string>) {
  const container = await createContainer(
    loadConfig({ ...env, LOG_LEVEL: 'silent', SQLITE_SYNCHRONOUS: 'NORMAL' }),
  );
  try {
    const { orgs, accounts, clients, projects } = container.services;
    const org = await orgs.createOrg(`Bench Agency ${process.pid}`);
    const owner = await accounts.createMember({
      email: `owner-${process.pid}@bench.test`,
      password: 'bench password 1',
      name: 'Owner',
      orgId: org.id,
      role: 'owner',
    });
    const emails: string[] = [];
    for (let i = 0; i < SIZES.clients; i++) {
      const client = await clients.create(systemPrincipal(org.id), {
        email: `client-${i}@bench.test`,
        name: `Client ${i}`,
        company: `Company ${i}`,
      });
      emails.push(client.email);
    }
    let firstProject = '';
    for (let i = 0; i < SIZES.projects; i++) {
      const project = await projects.create(systemPrincipal(org.id), {
        client_email: emails[i % emails.length]!,
        name: `Project ${i}`,
        description: `Website number ${i}`,
      });
      firstProject ||= project.id;
    }
    const firstClient = (await clients.search(systemPrincipal(org.id), {}, 1, 0)).clients[0]!.id;
    const token = await accounts.openSession(owner.id, org.id);
    return { token, firstClient, firstProject };
  } finally {
    await container.close();
  }
}

async function main(): Promise<number> {
  requireCores(2);
  const tmp = mkdtempSync(join(tmpdir(), 'sitewright-bench-pages-'));
  onCleanup(() => rmSync(tmp, { recursive: true, force: true }));
  const dbs = await benchDatabases(tmp);
  log(`${describeRun(APP_DIR)}\nengine: ${dbs.engine}; server: ${SERVER_CMD.join(' ')}`);
  const port = await freePort();
  const env = {
    ...dbs.api,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
    WEBHOOK_DISPATCHER: 'false',
  };
  const started = Date.now();
  const fixtures = await seed(env);
  log(
    `fixtures: ${SIZES.clients} clients, ${SIZES.projects} projects in one organization, in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  const server = await startServer({
    name: 'Sitewright',
    cmd: SERVER_CMD,
    cwd: APP_DIR,
    env: productEnv(env),
    port,
    cpus: '0',
    log: join(tmp, 'server.log'),
    readyPath: '/healthz',
  });
  const pages = [
    '/',
    '/clients',
    '/clients?q=client-99',
    '/clients?status=invited&page=20',
    `/clients/${fixtures.firstClient}`,
    '/projects',
    '/projects?q=project-12',
    `/projects/${fixtures.firstProject}`,
    '/analytics',
    '/settings/keys',
  ];
  const headers = { cookie: `sitewright_session=${fixtures.token}` };
  log(
    `\n| page | p50 ms | p99 ms | server CPU ms / page | pages/s | under ${TARGET_MS} ms |\n|---|---|---|---|---|---|`,
  );
  let failures = 0;
  for (const page of pages) {
    // A short warm-up, then the measured round.
    await runWrk({
      url: server.url + page,
      script: join(WRK_DIR, 'page.lua'),
      headers,
      seconds: 1,
      connections: 1,
      threads: 1,
      cpus: '1',
      serverPid: server.pid,
    });
    const r = await runWrk({
      url: server.url + page,
      script: join(WRK_DIR, 'page.lua'),
      headers,
      seconds: SECONDS,
      connections: 1,
      threads: 1,
      cpus: '1',
      serverPid: server.pid,
    });
    const cpuMs = r.cpuUsPerRequest / 1000;
    const ok = r.errors === 0 && r.p99ms < TARGET_MS;
    if (!ok) failures++;
    log(
      `| \`${page.replace(/[0-9a-f-]{36}/, '{id}')}\` | ${r.p50ms.toFixed(1)} | ${r.p99ms.toFixed(1)} | ${cpuMs.toFixed(1)} | ${r.rps.toFixed(0)} | ${r.errors ? `errors: ${r.errorDetail}` : ok ? 'yes' : 'NO'} |`,
    );
  }
  await server.stop();
  return failures === 0 ? 0 : 1;
}

await runBenchmark(main);
