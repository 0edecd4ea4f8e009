// `npm run bench`: each of four API operations, served by Sitewright as it runs in production
// (its own process, started as `npm start` starts it), against a minimal Fastify server in its
// own process doing the same database work (bench/minimal/). wrk drives the load from the other
// core; rounds alternate between the two. SQLite by default; BENCH_DATABASE_URL=postgres://...
// runs both on PostgreSQL. Method and figures: bench/README.md, "API hot paths".
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCleanup, runBenchmark } from './lib/cleanup.ts';
import { describeRun, requireCores } from './lib/machine.ts';
import { APP_DIR, SERVER_CMD, productEnv, withNodeFlags } from './lib/product.ts';
import { freePort, startServer, treeRss } from './lib/processes.ts';
import { topSelfTime } from './lib/profile.ts';
import { benchDatabases } from './api/databases.ts';
import { loadFixtures, writeLuaFixtures } from './api/fixtures.ts';
import {
  OPERATIONS,
  markdownTable,
  measure,
  summarize,
  type OperationResult,
  type Settings,
} from './api/operations.ts';
import { checkSameAnswers } from './api/shapes.ts';

const env = process.env;
const SERVER_CPUS = '0';
const SIZES = { orgs: 10, keysPerOrg: 10, clients: 10_000, projects: 1_000 };
const ROUNDS = Number(env.BENCH_ROUNDS ?? 6);
const wanted = env.BENCH_OPS?.split(',');
const operations = OPERATIONS.filter((o) => !wanted || wanted.includes(o.op));
const log = (line: string) => console.log(line);
// How the API under test renders a page of projects (see bench/minimal/records.ts): `rows` for
// the current code, `sql-json` for commit 854ed1f and before. The twin must do the same work.
const TWIN_LIST = env.BENCH_TWIN_LIST === 'sql-json' ? 'sql-json' : 'rows';

const megabytes = (tree: { kb: number }[]) =>
  `${(tree.reduce((s, p) => s + p.kb, 0) / 1024).toFixed(0)} MB in ${tree.length} process(es)`;

async function main(): Promise<number> {
  requireCores(2);
  const tmp = mkdtempSync(join(tmpdir(), 'sitewright-bench-'));
  onCleanup(() => rmSync(tmp, { recursive: true, force: true }));
  const dbs = await benchDatabases(tmp);
  log(
    `${describeRun(APP_DIR)}\nengine: ${dbs.engine}; server: ${SERVER_CMD.join(' ')}; temporary files: ${tmp}`,
  );

  const apiPort = await freePort();
  const apiEnv = () =>
    productEnv({
      ...dbs.api,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
      // As shipped (LOG_LEVEL info, SQLITE_SYNCHRONOUS unset = FULL), except: no rate limit in the
      // way, and no webhook dispatcher (the fixtures have no webhooks to deliver to).
      RATE_LIMIT_QUOTA: '1000000000',
      LOG_LEVEL: 'info',
      WEBHOOK_DISPATCHER: 'false',
    });
  const startApi = (nodeFlags: string[]) =>
    startServer({
      name: 'API',
      cmd: withNodeFlags(SERVER_CMD, nodeFlags),
      cwd: APP_DIR,
      env: apiEnv(),
      port: apiPort,
      cpus: SERVER_CPUS,
      log: join(tmp, 'api.log'),
      readyPath: '/healthz',
    });

  let api = await startApi([]);
  await new Promise((r) => setTimeout(r, 3000));
  log(`idle RSS of the API after start-up, no data yet: ${megabytes(treeRss(api.pid))}`);
  const started = Date.now();
  const orgs = await loadFixtures(api.url, apiEnv(), SIZES, String(process.pid));
  log(
    `fixtures: ${SIZES.orgs} organizations, ${SIZES.orgs * SIZES.keysPerOrg} keys, ${SIZES.clients} clients, ${SIZES.projects} projects in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  const fixturesFile = join(tmp, 'fixtures.lua');
  writeLuaFixtures(orgs, fixturesFile);
  await new Promise((r) => setTimeout(r, 3000)); // idle: let start-up and fixture garbage settle
  const rss = treeRss(api.pid);
  const totalMb = rss.reduce((s, p) => s + p.kb, 0) / 1024;
  log(
    `idle RSS of the API after start-up and fixtures: ${megabytes(rss)} (target < 100 MB, one process: ${totalMb < 100 && rss.length === 1 ? 'met' : 'MISSED'})`,
  );
  for (const p of rss) log(`  pid ${p.pid} ${(p.kb / 1024).toFixed(0)} MB ${p.command}`);
  if (rss.length > 1) log('  (more than one process: the server runs helpers beside it)');

  // The twin gets a copy of the loaded database; the API starts afresh on its own (under the
  // CPU profiler with BENCH_PROFILE=1: its figures are then a little lower, keep them apart).
  await api.stop();
  const twinSettings = await dbs.copyForTwin();
  const profileDir = env.BENCH_PROFILE === '1' ? join(tmp, 'profile') : undefined;
  if (profileDir) mkdirSync(profileDir);
  api = await startApi(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
  const twinPort = await freePort();
  const twin = await startServer({
    name: 'minimal',
    cmd: ['node', '--import', 'tsx', fileURLToPath(new URL('./minimal/server.ts', import.meta.url))],
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: productEnv({
      ...twinSettings,
      PORT: String(twinPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      TWIN_PROJECT_LIST: TWIN_LIST,
    }),
    port: twinPort,
    cpus: SERVER_CPUS,
    log: join(tmp, 'minimal.log'),
    readyPath: '/healthz',
  });
  await checkSameAnswers(api.url, twin.url, orgs[0]!);
  log(
    `both servers answer the four operations alike (reads byte for byte, writes in shape); the twin renders project pages as ${TWIN_LIST}`,
  );

  const settings: Settings = {
    rounds: ROUNDS,
    seconds: Number(env.BENCH_SECONDS ?? 5),
    warmupSeconds: 2,
    connections: Number(env.BENCH_CONNECTIONS ?? 10),
    threads: 1,
    loadCpus: '1',
    fixturesFile,
  };
  log(
    `wrk -t${settings.threads} -c${settings.connections} -d${settings.seconds}s on core ${settings.loadCpus}, servers on core ${SERVER_CPUS}, ${ROUNDS} rounds per side`,
  );
  const results: OperationResult[] = [];
  for (const operation of operations) {
    const sides = [
      { name: 'api', url: api.url, pid: api.pid, databaseMatch: dbs.match?.api },
      { name: 'minimal', url: twin.url, pid: twin.pid, databaseMatch: dbs.match?.twin },
    ] as const;
    results.push(await measure(operation, [sides[0], sides[1]], settings, log));
  }
  log(`\n${dbs.engine}${profileDir ? ' (API under the CPU profiler)' : ''}:\n${markdownTable(results)}`);
  for (const r of results) for (const f of r.failures) log(`FAILED ANSWERS: ${r.operation.name}: ${f}`);
  const summaries = results.map(summarize);
  for (const s of summaries)
    log(
      `${s.name}: req/s per round API / minimal: ${s.spread}${s.disturbed ? `; ${s.disturbed} round(s) kept although other processes used the CPU` : ''}`,
    );

  if (profileDir) {
    // The profile is written when the server exits; each operation's share is its API rounds.
    await api.stop();
    for (const r of results) {
      log(
        `\nCPU profile of the API under ${r.operation.name} (its ${r.rounds.api.length} measured rounds), top self time:`,
      );
      log('| function | where | self ms | share |\n|---|---|---|---|');
      for (const f of topSelfTime(
        profileDir,
        api.pid,
        r.rounds.api.map((x) => x.window),
      )) {
        log(`| ${f.name} | ${f.where} | ${f.selfMs.toFixed(0)} | ${(f.share * 100).toFixed(1)}% |`);
      }
    }
  }
  return results.some((r) => r.failures.length > 0) ? 1 : 0;
}

await runBenchmark(main);
