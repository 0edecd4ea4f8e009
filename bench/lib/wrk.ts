// One round of load: wrk pinned to its own core, for a fixed time, with a Lua script from
// bench/wrk/ that picks each request. The scripts end with report.lua's done(), which prints
// one JSON line; everything wrk counts as an error (non-2xx/3xx answers, socket errors,
// timeouts) is returned so that the caller can refuse the round. CPU time is read from /proc
// around the round: the server's (its whole process tree), its database backends' (PostgreSQL),
// wrk's own, and the rest of the machine's (someone else's work, which spoils the round).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cpuOfMatching, treeCpuMicros } from './processes.ts';
import { MAX_TRIES, NOISY_SHARE, machineCpu, waitForQuiet } from './quiet.ts';

export const WRK_DIR = fileURLToPath(new URL('../wrk/', import.meta.url));

export interface LoadOptions {
  url: string;
  /** Script in bench/wrk/ and the arguments its init() receives. */
  script: string;
  args?: string[];
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
  threads: number;
  /** Core(s) for wrk, away from the server's. */
  cpus: string;
  /** The server process whose CPU time (tree) is read before and after the round. */
  serverPid: number;
  /** Text in the command line of the server's database processes (a PostgreSQL database name). */
  databaseMatch?: string;
}

export interface RoundResult {
  requests: number;
  rps: number;
  errors: number;
  /** Status codes wrk saw other than 2xx/3xx, socket errors and timeouts, broken down. */
  errorDetail: string;
  p50ms: number;
  p99ms: number;
  /** Server CPU (all its threads and child processes) per completed request. */
  cpuUsPerRequest: number;
  /** CPU of the server's PostgreSQL backends per request (0 on SQLite). */
  dbCpuUsPerRequest: number;
  /** Share of one core that other processes of the machine used during the round. */
  othersShare: number;
  /** When the round ran, on the clock of CPU profiles (monotonic µs). */
  window: { from: number; to: number };
}

const SHELL_TIMES = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/;

export async function runWrk(o: LoadOptions): Promise<RoundResult> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const headerArgs = Object.entries(o.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const argv = [
    'taskset',
    '-c',
    o.cpus,
    'wrk',
    `-t${o.threads}`,
    `-c${o.connections}`,
    `-d${o.seconds}s`,
    '--latency',
    ...headerArgs,
    '-s',
    o.script,
    o.url,
  ];
  if (o.args?.length) argv.push('--', ...o.args);
  // The shell's `times` prints its children's CPU time: wrk's own, to leave out of the others'.
  const script = `${argv.map(quote).join(' ')}; status=$?; times; exit $status`;
  const db = () => (o.databaseMatch ? cpuOfMatching(o.databaseMatch) : new Map<number, number>());
  const [cpuBefore, dbBefore, machineBefore, start] = [
    treeCpuMicros(o.serverPid),
    db(),
    machineCpu(),
    process.hrtime.bigint(),
  ];
  const { stdout } = await promisify(execFile)('sh', ['-c', script], { cwd: WRK_DIR, maxBuffer: 1 << 20 });
  const end = process.hrtime.bigint();
  const wall = Number(end - start) / 1000;
  const cpu = treeCpuMicros(o.serverPid) - cpuBefore;
  let dbCpu = 0;
  for (const [pid, us] of db()) dbCpu += us - (dbBefore.get(pid) ?? 0);
  const t = SHELL_TIMES.exec(stdout.trimEnd());
  const wrkCpu = t ? (Number(t[1]) * 60 + Number(t[2]) + Number(t[3]) * 60 + Number(t[4])) * 1e6 : 0;
  const others = machineCpu().busy - machineBefore.busy - cpu - dbCpu - wrkCpu;

  const line = stdout.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
  const s = JSON.parse(line.slice('WRK_JSON '.length)) as Record<string, number>;
  const errors = s.status! + s.connect! + s.read! + s.write! + s.timeout!;
  const requests = Math.max(1, s.requests!);
  return {
    requests: s.requests!,
    rps: s.requests! / (s.duration_us! / 1e6),
    errors,
    errorDetail: ['status', 'connect', 'read', 'write', 'timeout']
      .filter((k) => s[k]! > 0)
      .map((k) => `${k} ${s[k]}`)
      .join(', '),
    p50ms: s.p50_us! / 1000,
    p99ms: s.p99_us! / 1000,
    cpuUsPerRequest: cpu / requests,
    dbCpuUsPerRequest: dbCpu / requests,
    othersShare: Math.max(0, others) / wall,
    window: { from: Number(start / 1000n), to: Number(end / 1000n) },
  };
}

/** A round on a quiet machine: waits for one, and repeats a round others disturbed (MAX_TRIES in all; the last is kept, its othersShare tells). */
export async function quietRound(
  load: (attempt: number) => LoadOptions,
  label: string,
  log: (line: string) => void,
): Promise<RoundResult> {
  for (let attempt = 1; ; attempt++) {
    await waitForQuiet(log);
    const r = await runWrk(load(attempt));
    if (r.othersShare <= NOISY_SHARE || attempt >= MAX_TRIES) return r;
    log(
      `  ${label}: other processes used ${(r.othersShare * 100).toFixed(0)}% of a core during the round: repeated`,
    );
  }
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
