// `npm run bench:capture`: what page-view capture costs. Two servers, each with one published
// 10 KB page, one with capture on and one with it off, loaded alternately in one run with
// keep-alive and browser User-Agents (bots are not recorded, so they would flatter capture).
// SQLite by default; BENCH_DATABASE_URL=postgres://... runs both servers on PostgreSQL.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { writeTenKbPage } from './page.ts';
import { roundsTable } from './rounds.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const page = writeTenKbPage('sitewright-capture-');

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
];
const REFERRERS = [
  'https://www.google.com/',
  '',
  'https://www.facebook.com/',
  'https://news.example.org/story',
];

function server(capture: boolean) {
  const child = fork(fileURLToPath(new URL('./site-server.ts', import.meta.url)), [page.file], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
    env: { ...process.env, BENCH_CAPTURE: String(capture) },
  });
  const ready = new Promise<{ address: string; host: string }>((resolve) =>
    child.once('message', (m) => resolve(m as never)),
  );
  return { child, ready };
}

const sides = { 'capture on': server(true), 'capture off': server(false) };
const targets = Object.fromEntries(
  await Promise.all(Object.entries(sides).map(async ([name, s]) => [name, await s.ready] as const)),
);

const cpuOf = (child: ChildProcess) =>
  new Promise<number>((resolve) => {
    child.once('message', (m) => {
      const { cpu } = m as { cpu: NodeJS.CpuUsage };
      resolve(cpu.user + cpu.system);
    });
    child.send('cpu');
  });

async function load(target: { address: string; host: string }, child: ChildProcess) {
  const before = await cpuOf(child);
  const requests = AGENTS.map((ua, i) => ({
    method: 'GET' as const,
    path: '/',
    headers: { host: target.host, 'user-agent': ua, ...(REFERRERS[i] ? { referer: REFERRERS[i] } : {}) },
  }));
  const result = await autocannon({
    url: `${target.address}/`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${target.address}: ${bad} failed requests`);
  // Server CPU (every thread, µs) per request: what capture costs, whoever else shares the machine.
  const cpuPerRequest = ((await cpuOf(child)) - before) / result.requests.total;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuPerRequest };
}

for (const [name, t] of Object.entries(targets)) await load(t, sides[name as keyof typeof sides].child); // warm-up
const rounds: Record<string, Awaited<ReturnType<typeof load>>[]> = { 'capture on': [], 'capture off': [] };
for (let i = 0; i < ROUNDS; i++) {
  // Alternate which side goes first, so drift on the machine hits both alike.
  const order = i % 2 === 0 ? Object.keys(targets) : Object.keys(targets).reverse();
  for (const name of order)
    rounds[name]!.push(await load(targets[name]!, sides[name as keyof typeof sides].child));
}
const rows = roundsTable(rounds);
console.table(rows);
const on = sides['capture on'].child;
const stats = await new Promise<Record<string, number>>((resolve) => {
  on.once('message', (m) => resolve((m as { views: Record<string, number> }).views));
  on.send('views');
});
// Rounds alternate, so each round of one side has a neighbour of the other under the same
// conditions: the median of those paired ratios shrugs off the machine's drift between rounds.
const paired = rounds['capture on']!.map((r, i) => r.rps / rounds['capture off']![i]!.rps).sort(
  (a, b) => a - b,
);
const ratio = paired[Math.floor(paired.length / 2)]!;
const cpuRatio = Number(rows[0]!['server CPU µs/req']) / Number(rows[1]!['server CPU µs/req']);
console.log(
  `engine: ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}; views recorded ${stats.recorded}, written ${stats.written}, dropped ${stats.dropped}, failed ${stats.failed}`,
);
console.log(`server CPU per request, capture on / off = ${cpuRatio.toFixed(3)}`);
console.log(
  `capture on / capture off, median of ${paired.length} paired rounds = ${ratio.toFixed(3)} (mean req/s ratio ${(rows[0]!['req/s'] / rows[1]!['req/s']).toFixed(3)}): capture costs ${((1 - ratio) * 100).toFixed(1)}% of serving throughput (target <= 10%: ${ratio >= 0.9 ? 'met' : 'NOT met'})`,
);
for (const s of Object.values(sides)) s.child.send('stop');
