// Top self-time functions of a V8 CPU profile (`node --cpu-prof`), for the record of where a
// server spends a missed target's time. Idle time is left out of the shares. Sample times are
// CLOCK_MONOTONIC µs, the clock of process.hrtime, so a window can keep only the load's samples
// (not the server's start-up, nor other operations' rounds: --cpu-prof records all).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotFunction {
  name: string;
  where: string;
  selfMs: number;
  share: number;
}

/** `pid`: the server's; its main thread's profile is CPU.<date>.<time>.<pid>.0.<n>.cpuprofile (children and worker threads write their own). */
export function topSelfTime(
  dir: string,
  pid: number,
  windows: { from: number; to: number }[],
  count = 15,
): HotFunction[] {
  const file = readdirSync(dir).find((f) => f.includes(`.${pid}.0.`) && f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile of process ${pid}'s main thread in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, { name: string; where: string; us: number }>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)' || !windows.some((w) => at >= w.from && at <= w.to)) return;
    busy += us;
    // node_modules/<pkg>/..., src/... or dist/...: enough to find it, short enough for a table.
    const where = frame.url
      ? `${frame.url.replace(/^.*?\/(node_modules|src|dist)\//, '$1/')}:${frame.lineNumber + 1}`
      : '';
    const key = `${frame.functionName}@${where}`;
    const entry = self.get(key) ?? { name: frame.functionName || '(anonymous)', where, us: 0 };
    entry.us += us;
    self.set(key, entry);
  });
  return [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map((e) => ({ name: e.name, where: e.where, selfMs: e.us / 1000, share: e.us / busy }));
}
