// The real server as a child process (`node bin/sitewright.js start`, which runs the compiled
// dist/: test/global-setup.ts builds it first), for tests that kill it or look at the process.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { waitUntil } from './wait.ts';

const BIN = fileURLToPath(new URL('../../bin/sitewright.js', import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class ServerProcess {
  private child: ChildProcess | undefined;
  private output = '';

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the server and resolves once /healthz answers. */
  async start(): Promise<void> {
    this.output = '';
    const child = spawn(process.execPath, [BIN, 'start'], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(this.port), ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${this.output}`);
        return fetch(`${this.url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      20_000,
      'the server to start',
    );
  }

  /** Kills the server without warning (SIGKILL: no shutdown code runs) and waits for it to die. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  get logs(): string {
    return this.output;
  }
}
