// Runs the real `sitewright` command (bin/sitewright.js, which runs the compiled dist/:
// test/global-setup.ts builds it first) as a child process.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { TestDatabase } from './database.ts';

export const BIN = fileURLToPath(new URL('../../bin/sitewright.js', import.meta.url));

export function cliEnv(db: TestDatabase, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: db.dataDir,
    LOG_LEVEL: 'warn',
    ...extra,
  };
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  return env;
}

/** Runs the command with `input` piped on its stdin (none: stdin is an empty pipe, closed at once). */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}

/** Starts `sitewright start` (or `command`, such as `npm start`) and resolves once /healthz answers. */
export async function startServer(
  env: NodeJS.ProcessEnv,
  port: number,
  command = [process.execPath, BIN, 'start'],
): Promise<ChildProcess> {
  const [file, ...args] = command;
  const child = spawn(file!, args, {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy:\n${output}`);
}

export async function stopServer(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  child.kill(signal);
  const [code] = await once(child, 'exit');
  return code as number | null;
}
