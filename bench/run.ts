// `npm run bench`: the API's hot paths side by side with a bare Fastify route returning the same
// bytes, in one run. The servers run in a child process; autocannon loads them from this one.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

// Each side runs in short alternating rounds, so a burst of load from elsewhere on the machine
// hits both sides alike instead of skewing the ratio.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const DURATION = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TARGETS: Record<string, number> = { 'GET /clients/{id}': 0.7, 'GET /projects?limit=50': 0.35, 'POST /clients': 0 };

interface Ready {
  apiAddress: string;
  bareAddress: string;
  key: string;
  paths: { client: string; projects: string };
}

const child = fork(fileURLToPath(new URL('./servers.ts', import.meta.url)), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const ready = await new Promise<Ready>((resolve, reject) => {
  child.once('message', (m) => resolve(m as Ready));
  child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
});

function serverCpuMicros(): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      const cpu = (m as { cpu?: NodeJS.CpuUsage }).cpu;
      if (!cpu) return;
      child.off('message', onMessage);
      resolve(cpu.user + cpu.system);
    };
    child.on('message', onMessage);
    child.send('cpu');
  });
}

let seq = 0;
async function load(base: string, method: 'GET' | 'POST', path: string) {
  const headers = { authorization: `Bearer ${ready.key}`, 'content-type': 'application/json' };
  const cpuBefore = await serverCpuMicros();
  const result = await autocannon({
    url: base + path,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      method === 'GET'
        ? { method, path, headers }
        : { method, path, headers, setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: `c${process.pid}-${++seq}@example.com` }) }) },
    ],
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${method} ${path} on ${base}: ${bad} failed requests`);
  const cpu = (await serverCpuMicros()) - cpuBefore;
  return { requests: result.requests.total, seconds: result.duration, cpu, p50: result.latency.p50, p99: result.latency.p99 };
}

type Round = Awaited<ReturnType<typeof load>>;
function summary(rounds: Round[]) {
  const mean = (pick: (r: Round) => number) => rounds.reduce((sum, r) => sum + pick(r), 0) / rounds.length;
  const requests = rounds.reduce((s, r) => s + r.requests, 0);
  return {
    rps: requests / rounds.reduce((s, r) => s + r.seconds, 0),
    cpuPerRequest: rounds.reduce((s, r) => s + r.cpu, 0) / requests,
    p50: mean((r) => r.p50),
    p99: mean((r) => r.p99),
  };
}

const scenarios: [string, 'GET' | 'POST', string][] = [
  ['GET /clients/{id}', 'GET', ready.paths.client],
  ['GET /projects?limit=50', 'GET', ready.paths.projects],
  ['POST /clients', 'POST', '/api/v1/clients'],
];

const rows = [];
for (const [name, method, path] of scenarios) {
  await load(ready.apiAddress, method, path); // warm-up: JIT, caches, SQLite pages
  const bareRounds: Round[] = [];
  const apiRounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bareRounds.push(await load(ready.bareAddress, method, path));
    apiRounds.push(await load(ready.apiAddress, method, path));
  }
  const bare = summary(bareRounds);
  const api = summary(apiRounds);
  const ratio = api.rps / bare.rps;
  const target = TARGETS[name] ?? 0;
  rows.push({
    scenario: name,
    'api req/s': Math.round(api.rps),
    'api p50/p99 ms': `${api.p50.toFixed(1)}/${api.p99.toFixed(1)}`,
    'bare req/s': Math.round(bare.rps),
    'bare p50/p99 ms': `${bare.p50.toFixed(1)}/${bare.p99.toFixed(1)}`,
    'api/bare cpu µs': `${api.cpuPerRequest.toFixed(0)}/${bare.cpuPerRequest.toFixed(0)}`,
    ratio: ratio.toFixed(2),
    'cpu ratio': (bare.cpuPerRequest / api.cpuPerRequest).toFixed(2),
    target: target ? `>= ${target}` : '-',
    met: target ? (ratio >= target ? 'yes' : 'NO') : '-',
  });
}
console.table(rows);
child.send('stop');
