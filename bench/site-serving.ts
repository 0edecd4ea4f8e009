// `npm run bench:sites`: a published 10 KB index.html served by Sitewright, side by side in one
// run with nginx (Debian's package) serving the same file from disk, both with keep-alive.
// Alternating rounds, so that load from elsewhere on the machine hits both alike.
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { writeTenKbPage } from './page.ts';
import { roundsTable } from './rounds.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

const { dir, file, html } = writeTenKbPage('sitewright-nginx-');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

// nginx as a foreground child with its own config: one worker (Sitewright is one process too).
const nginxPort = await freePort();
writeFileSync(
  join(dir, 'nginx.conf'),
  `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_timeout 65; keepalive_requests 1000000;
  types { text/html html; } default_type text/html; etag on;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server { listen 127.0.0.1:${nginxPort}; root ${dir}; location / { try_files $uri $uri/index.html /index.html; } } }
`,
);
const nginx: ChildProcess = spawn(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
nginx.on('error', (e) => {
  console.error(`could not start nginx (${NGINX}): ${e.message}; install it with: apt-get install nginx`);
  process.exit(1);
});

const child = fork(fileURLToPath(new URL('./site-server.ts', import.meta.url)), [file], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const ready = await new Promise<{ address: string; host: string }>((resolve) => child.once('message', (m) => resolve(m as never)));
await new Promise((r) => setTimeout(r, 500));

async function load(url: string, host: string) {
  // A browser's User-Agent: Sitewright records each page as a view (capture on, as shipped).
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { host, 'user-agent': BROWSER } });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${url}: ${bad} failed requests`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bytes: result.throughput.average };
}

const sides = { sitewright: { url: `${ready.address}/`, host: ready.host }, nginx: { url: `http://127.0.0.1:${nginxPort}/`, host: 'localhost' } };
await load(sides.sitewright.url, sides.sitewright.host); // warm-up: JIT, file cache
await load(sides.nginx.url, sides.nginx.host);
const rounds: Record<string, Awaited<ReturnType<typeof load>>[]> = { sitewright: [], nginx: [] };
for (let i = 0; i < ROUNDS; i++) {
  for (const [name, side] of Object.entries(sides)) rounds[name]!.push(await load(side.url, side.host));
}
const rows = roundsTable(rounds);
console.table(rows);
const ratio = rows[0]!['req/s'] / rows[1]!['req/s'];
console.log(`file: ${html.length} bytes; Sitewright / nginx = ${ratio.toFixed(2)} (target >= 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'})`);
child.send('stop');
nginx.kill('SIGTERM');
