// Servers under test as OS processes: started pinned to a CPU core (taskset execs the command,
// so the child's pid is the server's own), their output written to a log file as a deployment
// would, their CPU time and memory read from /proc for the whole process tree (a server that
// starts helpers, such as a compiler service, pays for them too).
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { onCleanup } from './cleanup.ts';

const TICK_US = 1_000_000 / 100; // USER_HZ: 100 on Linux (getconf CLK_TCK)

export interface Server {
  name: string;
  child: ChildProcess;
  pid: number;
  url: string;
  log: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  cmd: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  /** Cores for taskset, e.g. '0'. */
  cpus: string;
  log: string;
  /** A path that answers 200 once the server can serve. */
  readyPath?: string;
  readyHeaders?: Record<string, string>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function startServer(o: StartOptions): Promise<Server> {
  const out = openSync(o.log, 'a');
  const child = spawn('taskset', ['-c', o.cpus, ...o.cmd], {
    cwd: o.cwd,
    env: o.env,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  // A command that cannot start (missing program or directory) fails the start, not the process.
  let spawnError: Error | undefined;
  child.on('error', (error) => (spawnError = error));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (spawnError || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  const removeCleanup = onCleanup(stop);
  child.once('exit', removeCleanup);
  const url = `http://127.0.0.1:${o.port}`;
  const server: Server = { name: o.name, child, pid: child.pid!, url, log: o.log, stop };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (spawnError)
      throw new Error(`${o.name} could not start (${o.cmd.join(' ')} in ${o.cwd}): ${spawnError.message}`);
    if (child.exitCode !== null)
      throw new Error(`${o.name} exited with ${child.exitCode} at start; see ${o.log}:\n${tail(o.log)}`);
    const ok = await fetch(url + (o.readyPath ?? '/'), { headers: o.readyHeaders }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return server;
    if (Date.now() > deadline) throw new Error(`${o.name} not ready after 60 s; see ${o.log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** The process and all its descendants. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat) continue;
    const ppid = Number(stat[1]);
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]!) ?? []));
  return tree;
}

/** Fields of /proc/PID/stat after the command name (index 0 is the state). */
function readStat(pid: number, task?: number): string[] | undefined {
  try {
    const text = readFileSync(
      task === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${task}/stat`,
      'utf8',
    );
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // exited meanwhile
  }
}

/** CPU time (user + system, all threads) of the process tree, in µs. */
export function treeCpuMicros(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    const s = readStat(p);
    if (s) ticks += Number(s[11]) + Number(s[12]); // utime, stime
  }
  return ticks * TICK_US;
}

/** Resident memory of each process of the tree: [pid, command, kB]. */
export function treeRss(pid: number): { pid: number; command: string; kb: number }[] {
  return processTree(pid).flatMap((p) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const command = readFileSync(`/proc/${p}/cmdline`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .slice(0, 3)
        .join(' ');
      return [{ pid: p, command, kb }];
    } catch {
      return [];
    }
  });
}

/** Thread ids of a process with their nice value. */
export function threads(pid: number): { tid: number; nice: number }[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((t) => {
    const s = readStat(pid, Number(t));
    return s ? [{ tid: Number(t), nice: Number(s[16]) }] : [];
  });
}

/** CPU time (µs) per process whose command line contains `text`, e.g. the PostgreSQL backends of one database (their title names it). */
export function cpuOfMatching(text: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) continue;
    } catch {
      continue;
    }
    const s = readStat(Number(entry));
    if (s) found.set(Number(entry), (Number(s[11]) + Number(s[12])) * TICK_US);
  }
  return found;
}
