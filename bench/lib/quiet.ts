// This machine is shared (test suites, builds): a round during which other processes used the
// CPU measures them, not the servers. The machine's busy time (/proc/stat) minus what the
// benchmark accounts for (server, its database backends, wrk) is the others' share; rounds wait
// for a quiet machine and are repeated when someone else took more than a little of it.
import { readFileSync } from 'node:fs';

const TICK_US = 1_000_000 / 100;
/** Above this share of one core used by others during a round, the round is repeated. */
export const NOISY_SHARE = Number(process.env.BENCH_NOISY_SHARE ?? 0.05);

/**
 * CPU time all cores spent in processes so far (user, nice, system), in µs. Interrupt time is
 * left out: the servers' own loopback traffic makes most of it, and no process is charged it.
 */
export function machineCpu(): { busy: number } {
  const [user, nice, system] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number) as [number, number, number];
  return { busy: (user + nice + system) * TICK_US };
}

/** Tries of a round before a disturbed one is kept (and flagged). */
export const MAX_TRIES = Number(process.env.BENCH_MAX_TRIES ?? 10);

/** Waits (up to BENCH_QUIET_WAIT seconds, default 900) until others use under NOISY_SHARE of a core for two seconds in a row. */
export async function waitForQuiet(log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + Number(process.env.BENCH_QUIET_WAIT ?? 900) * 1000;
  let told = false;
  let quietSeconds = 0;
  for (;;) {
    const before = machineCpu().busy;
    await new Promise((r) => setTimeout(r, 1000));
    const share = (machineCpu().busy - before) / 1e6;
    quietSeconds = share < NOISY_SHARE ? quietSeconds + 1 : 0;
    if (quietSeconds >= 2) return;
    if (share < NOISY_SHARE) continue;
    if (Date.now() > deadline) {
      log(
        `  the machine stayed busy (${(share * 100).toFixed(0)}% of a core used by other processes): measuring anyway`,
      );
      return;
    }
    if (!told)
      log(
        `  waiting for a quiet machine (${(share * 100).toFixed(0)}% of a core used by other processes)...`,
      );
    told = true;
  }
}
