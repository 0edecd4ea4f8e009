// `npm run bench:sites`: a published 10 KB index.html served by Sitewright as it runs in
// production (its own process, started as `npm start` starts it, page-view capture on as
// shipped), against nginx (Debian's package, one worker) serving the same file from disk. Each
// server is pinned to core 0 and wrk loads it from core 1, in alternating rounds; Sitewright's
// capture writer thread may also run on core 1. Target: Sitewright >= 0.5 of nginx's req/s.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup, runBenchmark } from './lib/cleanup.ts';
import { describeRun, requireCores } from './lib/machine.ts';
import { APP_DIR, SERVER_CMD, cliJson, productEnv } from './lib/product.ts';
import { freePort, startServer, threads, treeRss } from './lib/processes.ts';
import { NOISY_SHARE } from './lib/quiet.ts';
import { median, quietRound, runWrk, type RoundResult } from './lib/wrk.ts';
import { writeTenKbPage } from './page.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const SITES_DOMAIN = 'sites.bench';
// A browser's User-Agent: Sitewright records each page served to one as a view (bots are not).
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** GET with a Host header of our choosing (fetch does not let one set it). */
function get(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host, 'user-agent': BROWSER } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}

async function api(base: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

async function main(): Promise<number> {
  requireCores(2);
  const tmp = mkdtempSync(join(tmpdir(), 'sitewright-sites-'));
  onCleanup(() => rmSync(tmp, { recursive: true, force: true }));
  const page = writeTenKbPage('sitewright-nginx-');
  onCleanup(() => rmSync(page.dir, { recursive: true, force: true }));
  console.log(`${describeRun(APP_DIR)}\nserver: ${SERVER_CMD.join(' ')}; temporary files: ${tmp}`);

  const port = await freePort();
  const env = productEnv({
    DATA_DIR: join(tmp, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SITES_DOMAIN,
    RATE_LIMIT_QUOTA: '1000000000',
    LOG_LEVEL: 'info',
    WEBHOOK_DISPATCHER: 'false',
  });
  const sitewright = await startServer({
    name: 'Sitewright',
    cmd: SERVER_CMD,
    cwd: APP_DIR,
    env,
    port,
    cpus: '0',
    log: join(tmp, 'sitewright.log'),
    readyPath: '/healthz',
  });

  // The site, published through the stable interfaces: the CLI for the key, the REST API for the rest.
  const org = await cliJson<{ id: string }>(env, ['org', 'create', '--name', `Bench sites ${process.pid}`]);
  const { key } = await cliJson<{ key: string }>(env, [
    'keys',
    'create',
    '--org',
    org.id,
    '--permissions',
    'read,write',
  ]);
  await api(sitewright.url, key, 'POST', '/api/v1/clients', { email: 'bench@bench.example' });
  const { project } = await api(sitewright.url, key, 'POST', '/api/v1/projects', {
    name: 'Bench bakery',
    client_email: 'bench@bench.example',
  });
  await api(sitewright.url, key, 'POST', `/api/v1/projects/${project.id}/publish`, {
    builtFiles: { 'index.html': page.html },
  });
  const host = `${project.subdomain}.${SITES_DOMAIN}`;
  const served = await get(`${sitewright.url}/`, host);
  if (served.status !== 200 || served.body !== page.html)
    throw new Error(`the published page answered ${served.status} with other bytes`);

  // nginx as a foreground child with its own config: one worker (Sitewright is one process too).
  const nginxPort = await freePort();
  writeFileSync(
    join(page.dir, 'nginx.conf'),
    `daemon off; worker_processes 1; pid ${page.dir}/nginx.pid; error_log ${page.dir}/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_timeout 65; keepalive_requests 1000000;
  types { text/html html; } default_type text/html; etag on;
  client_body_temp_path ${page.dir}; proxy_temp_path ${page.dir}; fastcgi_temp_path ${page.dir}; uwsgi_temp_path ${page.dir}; scgi_temp_path ${page.dir};
  server { listen 127.0.0.1:${nginxPort}; root ${page.dir}; location / { try_files $uri $uri/index.html /index.html; } } }
`,
  );
  const nginx = await startServer({
    name: 'nginx',
    cmd: [NGINX, '-c', join(page.dir, 'nginx.conf'), '-p', page.dir],
    cwd: page.dir,
    env: productEnv({}),
    port: nginxPort,
    cpus: '0',
    log: join(tmp, 'nginx.log'),
  });

  const sides = [
    { name: 'Sitewright', url: `${sitewright.url}/`, host, pid: sitewright.pid },
    { name: 'nginx', url: `${nginx.url}/`, host: 'localhost', pid: nginx.pid },
  ];
  const load = (side: (typeof sides)[number], seconds: number) => ({
    url: side.url,
    script: 'page.lua',
    headers: { Host: side.host, 'User-Agent': BROWSER },
    seconds,
    connections: CONNECTIONS,
    threads: 1,
    cpus: '1',
    serverPid: side.pid,
  });
  for (const side of sides) await runWrk(load(side, 2)); // warm-up: JIT, file cache; starts the capture writer

  // The capture writer thread lowers its own priority (nice 10): that is how it is found.
  const writers = threads(sitewright.pid).filter((t) => t.nice > 0);
  for (const t of writers) execFileSync('taskset', ['-p', '-c', '0,1', String(t.tid)], { stdio: 'ignore' });
  console.log(
    writers.length
      ? `capture writer thread ${writers.map((t) => t.tid).join(', ')} may use cores 0 and 1`
      : 'no capture writer thread found (nice > 0): all threads stay on core 0',
  );

  const rounds: Record<string, RoundResult[]> = { Sitewright: [], nginx: [] };
  let failed = false;
  for (let i = 0; i < ROUNDS; i++) {
    for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
      const r = await quietRound(() => load(side, SECONDS), side.name, console.log);
      rounds[side.name]!.push(r);
      if (r.errors > 0) failed = true;
      const others = `others used ${(r.othersShare * 100).toFixed(1)}% of a core`;
      console.log(
        `  round ${i + 1} ${side.name}: ${Math.round(r.rps)} req/s, ${r.cpuUsPerRequest.toFixed(0)} µs CPU/request, ${others}${r.errors ? `, ${r.errors} FAILED (${r.errorDetail})` : ''}`,
      );
    }
  }
  const m = (name: string, pick: (r: RoundResult) => number) => median(rounds[name]!.map(pick));
  const ratio = m('Sitewright', (r) => r.rps) / m('nginx', (r) => r.rps);
  const servedPages = rounds.Sitewright!.reduce((s, r) => s + r.requests, 0);
  await new Promise((r) => setTimeout(r, 3000)); // captured views are written within about 2 s
  const report = await api(sitewright.url, key, 'GET', `/api/v1/analytics?days=1&project_id=${project.id}`);
  const rss = treeRss(sitewright.pid).reduce((s, p) => s + p.kb, 0) / 1024;

  console.log(`\n| server | req/s (median of ${ROUNDS}) | CPU µs/request | p99 ms |\n|---|---|---|---|`);
  for (const name of Object.keys(rounds)) {
    console.log(
      `| ${name} | ${Math.round(m(name, (r) => r.rps)).toLocaleString('en-US')} | ${m(name, (r) => r.cpuUsPerRequest).toFixed(0)} | ${m(name, (r) => r.p99ms).toFixed(1)} |`,
    );
  }
  console.log(
    `\nfile: ${page.html.length} bytes; Sitewright / nginx = ${ratio.toFixed(2)} (target >= 0.5: ${failed ? 'INVALID: failed answers' : ratio >= 0.5 ? 'met' : 'MISSED'})`,
  );
  const disturbed = Object.values(rounds)
    .flat()
    .filter((r) => r.othersShare > NOISY_SHARE).length;
  if (disturbed)
    console.log(
      `${disturbed} round(s) kept although other processes used the CPU (BENCH_MAX_TRIES tries each)`,
    );
  console.log(
    `page views recorded: ${report.analytics.totalViews} (measured rounds served ${servedPages}, plus warm-up); Sitewright RSS after the run: ${rss.toFixed(0)} MB`,
  );
  return failed ? 1 : 0;
}

await runBenchmark(main);
