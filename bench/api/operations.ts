// The four operations `npm run bench` measures, their targets (API req/s over the minimal twin's),
// and the alternating rounds that measure one of them on both servers.
import { NOISY_SHARE } from '../lib/quiet.ts';
import { median, quietRound, type RoundResult } from '../lib/wrk.ts';

export interface Operation {
  /** The name bench/wrk/api.lua knows it by. */
  op: string;
  name: string;
  target: number;
}

export const OPERATIONS: Operation[] = [
  { op: 'get-client', name: 'GET /clients/{id}', target: 0.7 },
  { op: 'list-projects', name: 'GET /projects?limit=50&offset=N', target: 0.7 },
  { op: 'create-client', name: 'POST /clients', target: 0.8 },
  { op: 'update-project', name: 'PATCH /projects/{id}', target: 0.8 },
];

export interface Side {
  name: 'api' | 'minimal';
  url: string;
  pid: number;
  /** PostgreSQL: the database name, which its backends' process titles carry. */
  databaseMatch?: string;
}

export interface Settings {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  threads: number;
  loadCpus: string;
  fixturesFile: string;
}

export interface OperationResult {
  operation: Operation;
  rounds: Record<Side['name'], RoundResult[]>;
  /** Rounds wrk reported failed answers in: the result is not valid. */
  failures: string[];
}

/** Warm-up on both, then rounds alternating between the two, the first side swapped each round. */
export async function measure(
  operation: Operation,
  sides: [Side, Side],
  s: Settings,
  log: (line: string) => void,
): Promise<OperationResult> {
  const result: OperationResult = { operation, rounds: { api: [], minimal: [] }, failures: [] };
  const round = async (side: Side, tag: string, seconds: number) => {
    const load = {
      url: side.url,
      script: 'api.lua',
      seconds,
      connections: s.connections,
      threads: s.threads,
      cpus: s.loadCpus,
      serverPid: side.pid,
      databaseMatch: side.databaseMatch,
    };
    // A repeated try writes new emails and names too: the tag names the try.
    const args = (attempt: number) => [operation.op, s.fixturesFile, `${tag}t${attempt}p${process.pid}`];
    const r = await quietRound(
      (attempt) => ({ ...load, args: args(attempt) }),
      `${operation.name} ${side.name}`,
      log,
    );
    if (r.errors > 0)
      result.failures.push(`${side.name} ${tag}: ${r.errors} failed (${r.errorDetail}) of ${r.requests}`);
    return r;
  };
  for (const side of sides) await round(side, `${operation.op}-${side.name}-w`, s.warmupSeconds);
  for (let i = 0; i < s.rounds; i++) {
    const order = i % 2 === 0 ? sides : ([sides[1], sides[0]] as const);
    for (const side of order) {
      const r = await round(side, `${operation.op}-${side.name}-${i}`, s.seconds);
      result.rounds[side.name].push(r);
      const db = side.databaseMatch ? ` + ${r.dbCpuUsPerRequest.toFixed(0)} in PostgreSQL` : '';
      const others = `others used ${(r.othersShare * 100).toFixed(1)}% of a core`;
      log(
        `  ${operation.name} round ${i + 1} ${side.name}: ${Math.round(r.rps)} req/s, ${r.cpuUsPerRequest.toFixed(0)}${db} µs CPU/request, ${others}${r.errors ? `, ${r.errors} FAILED` : ''}`,
      );
    }
  }
  return result;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** Two decimals, or three where two would round a miss up to the target (0.699 is not 0.70). */
const ratioText = (ratio: number, target: number) =>
  ratio < target && Number(ratio.toFixed(2)) >= target ? ratio.toFixed(3) : ratio.toFixed(2);

/** The figures of one operation: medians over rounds. */
export function summarize(r: OperationResult) {
  const api = r.rounds.api;
  const min = r.rounds.minimal;
  const apiRps = median(api.map((x) => x.rps));
  const minRps = median(min.map((x) => x.rps));
  const ratio = apiRps / minRps;
  return {
    name: r.operation.name,
    apiRps,
    minRps,
    ratio,
    apiCpu: median(api.map((x) => x.cpuUsPerRequest)),
    minCpu: median(min.map((x) => x.cpuUsPerRequest)),
    apiDbCpu: median(api.map((x) => x.dbCpuUsPerRequest)),
    minDbCpu: median(min.map((x) => x.dbCpuUsPerRequest)),
    apiP99: median(api.map((x) => x.p99ms)),
    minP99: median(min.map((x) => x.p99ms)),
    target: r.operation.target,
    verdict:
      r.failures.length > 0 ? 'INVALID (failed answers)' : ratio >= r.operation.target ? 'met' : 'missed',
    spread: `${api.map((x) => fmt(x.rps)).join(' ')} / ${min.map((x) => fmt(x.rps)).join(' ')}`,
    disturbed: api.concat(min).filter((x) => x.othersShare > NOISY_SHARE).length,
  };
}

/** A Markdown table, ready for bench/README.md. */
export function markdownTable(results: OperationResult[]): string {
  const summaries = results.map(summarize);
  const withDb = summaries.some((s) => s.apiDbCpu > 0);
  const rows = summaries.map((s) => {
    const db = withDb ? ` ${s.apiDbCpu.toFixed(0)} / ${s.minDbCpu.toFixed(0)} |` : '';
    return `| \`${s.name}\` | ${fmt(s.apiRps)} | ${fmt(s.minRps)} | ${ratioText(s.ratio, s.target)} | ${s.apiCpu.toFixed(0)} / ${s.minCpu.toFixed(0)} |${db} ${s.apiP99.toFixed(1)} / ${s.minP99.toFixed(1)} | >= ${s.target.toFixed(2)}: ${s.verdict} |`;
  });
  return [
    `| operation | API req/s | minimal req/s | ratio | CPU µs/request API / minimal |${withDb ? ' PostgreSQL CPU µs/request API / minimal |' : ''} p99 ms API / minimal | target |`,
    `|---|---|---|---|---|${withDb ? '---|' : ''}---|---|`,
    ...rows,
  ].join('\n');
}
