// Start-up time and idle memory of `sitewright start` with traces off (OTEL_EXPORTER_OTLP_ENDPOINT
// unset), with them on (pointing at a local OTLP/HTTP receiver), and, when BENCH_BEFORE_DIR names
// a checkout built from a commit before traces existed, of that one: does leaving traces off cost
// anything? Each run: a fresh DATA_DIR (migrated first), the time from spawn to the first 200 of
// /healthz, and the resident memory two seconds later. Runs alternate so that drift hits all alike.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './lib/processes.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const HERE = new URL('..', import.meta.url).pathname;

const receiver = createServer((req, res) => req.resume().on('end', () => res.end('{}')));
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const otlp = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

const variants: { label: string; dir: string; env: Record<string, string> }[] = [
  { label: 'traces off', dir: HERE, env: {} },
  {
    label: 'traces on',
    dir: HERE,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  },
];
if (process.env.BENCH_BEFORE_DIR)
  variants.push({ label: 'before traces', dir: process.env.BENCH_BEFORE_DIR, env: {} });

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}

async function once(variant: (typeof variants)[number]): Promise<{ ms: number; rssMb: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitewright-startup-'));
  const env = { PATH: process.env.PATH!, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...variant.env };
  execFileSync(process.execPath, ['bin/sitewright.js', 'migrate'], {
    cwd: variant.dir,
    env,
    stdio: 'ignore',
  });
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/sitewright.js', 'start'], {
    cwd: variant.dir,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  let ms = 0;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      ms = performance.now() - started;
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 2_000));
  const rssMb = rssKb(child.pid!) / 1024;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
  return { ms, rssMb };
}

const results = new Map(variants.map((v) => [v.label, [] as { ms: number; rssMb: number }[]]));
for (let i = 0; i < RUNS; i++) for (const v of variants) results.get(v.label)!.push(await once(v));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`node ${process.version}, ${RUNS} runs each (median, min-max)`);
for (const [label, runs] of results) {
  const ms = runs.map((r) => r.ms);
  const mb = runs.map((r) => r.rssMb);
  console.log(
    `${label.padEnd(14)} start ${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)}), ` +
      `RSS ${median(mb).toFixed(1)} MB (${Math.min(...mb).toFixed(1)}-${Math.max(...mb).toFixed(1)})`,
  );
}
receiver.close();
