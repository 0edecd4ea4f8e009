// The table the serving benchmarks print: each side's rounds, averaged.
export interface Round {
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU per request (µs), when the benchmark measures it. */
  cpuPerRequest?: number;
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function roundsTable(rounds: Record<string, Round[]>) {
  return Object.entries(rounds).map(([name, rs]) => ({
    server: name,
    'req/s': Math.round(mean(rs.map((r) => r.rps))),
    'p50 ms': mean(rs.map((r) => r.p50)).toFixed(1),
    'p99 ms': mean(rs.map((r) => r.p99)).toFixed(1),
    ...(rs.every((r) => r.cpuPerRequest !== undefined)
      ? { 'server CPU µs/req': mean(rs.map((r) => r.cpuPerRequest!)).toFixed(1) }
      : {}),
    'per round req/s': rs.map((r) => Math.round(r.rps)).join(' '),
  }));
}
