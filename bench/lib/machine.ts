// What a figure depends on besides the code: printed with every run so that figures copied into
// bench/README.md carry their machine, Node version, date and the commit measured.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';

export function describeRun(appDir: string): string {
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  let commit = 'not a git checkout';
  try {
    const head = execFileSync('git', ['-C', appDir, 'log', '-1', '--format=%h %cs %s'], {
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync(
      'git',
      ['-C', appDir, 'status', '--porcelain', '--untracked-files=no', '--', 'src', 'bin', 'package.json'],
      { encoding: 'utf8' },
    ).trim();
    commit = `${head.slice(0, 90)}${dirty ? ' (plus uncommitted changes)' : ''}`;
  } catch {
    // not a checkout: say so
  }
  return [
    `date: ${new Date().toISOString()}`,
    `machine: ${availableParallelism()} CPUs, ${cpu}; Node ${process.version}`,
    `server code: ${appDir} @ ${commit}`,
  ].join('\n');
}

export function requireCores(n: number): void {
  if (availableParallelism() < n)
    throw new Error(
      `this benchmark pins the server and the load generator to separate cores: it needs ${n}, the machine has ${availableParallelism()}`,
    );
}
