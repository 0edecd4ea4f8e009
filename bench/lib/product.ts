// How the benchmarks start Sitewright: the ONE place that knows the product's commands. The
// server runs as `npm start` runs it, in its own process; when production moves to compiled JS,
// change SERVER_CMD / CLI_CMD here (or set BENCH_SERVER_CMD / BENCH_CLI_CMD) and nothing else.
// BENCH_APP_DIR points the benchmarks at another checkout (e.g. a worktree of an older commit).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The checkout whose server is measured; by default the one these benchmarks live in. */
export const APP_DIR = resolve(process.env.BENCH_APP_DIR ?? fileURLToPath(new URL('../..', import.meta.url)));
/** What `npm start` runs (package.json: `exec node bin/sitewright.js start`). */
export const SERVER_CMD = (process.env.BENCH_SERVER_CMD ?? 'node bin/sitewright.js start').split(/\s+/);
/** The `sitewright` command line tool, used for what only it can do (organizations, keys). */
export const CLI_CMD = (process.env.BENCH_CLI_CMD ?? 'node bin/sitewright.js').split(/\s+/);

/** The command with flags for node itself (such as --cpu-prof, which NODE_OPTIONS refuses). */
export function withNodeFlags(cmd: string[], flags: string[]): string[] {
  if (flags.length === 0) return cmd;
  if (!/(^|\/)node$/.test(cmd[0]!))
    throw new Error(`cannot pass ${flags.join(' ')} to ${cmd.join(' ')}: it does not start with node`);
  return [cmd[0]!, ...flags, ...cmd.slice(1)];
}

/** Settings for a product process: only what is set here, plus PATH and HOME, so nothing leaks in from the shell. */
export function productEnv(settings: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  for (const [name, value] of Object.entries(settings)) if (value !== undefined) env[name] = value;
  return env;
}

/** Runs the CLI with `--json` and returns the object it prints. */
export async function cliJson<T>(env: NodeJS.ProcessEnv, args: string[]): Promise<T> {
  const [cmd, ...pre] = CLI_CMD;
  const { stdout } = await promisify(execFile)(cmd!, [...pre, ...args, '--json'], { cwd: APP_DIR, env });
  return JSON.parse(stdout) as T;
}
