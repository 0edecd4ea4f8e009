// A real front proxy on loopback (Debian's Caddy, as in the production layout of docs/operations.md) for the
// tests of anything that depends on the client's address. Visitors are told apart by the loopback
// address they connect from (127.0.0.2, 127.0.0.3, ...: Linux routes all of 127/8 to lo). Caddy
// here trusts what loopback clients say in X-Forwarded-For and appends the address it saw, as
// a chain of proxies (or a careless one) would: the leftmost entry is then whatever the client
// wrote. Like Chromium, Caddy is installed by CI; test/global-setup.ts says when it is missing.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.ts';
import { waitUntil } from './wait.ts';

export const CADDY = process.env.CADDY_PATH ?? '/usr/bin/caddy';
export const hasCaddy = existsSync(CADDY);

export class FrontProxy {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** Caddy on a free loopback port, forwarding everything to `upstreamPort`. */
  static async start(upstreamPort: number): Promise<FrontProxy> {
    const dir = mkdtempSync(join(tmpdir(), 'sw-caddy-'));
    const port = await freePort();
    const config = `{\n\tadmin off\n\tauto_https off\n}\n:${port} {\n\treverse_proxy 127.0.0.1:${upstreamPort} {\n\t\ttrusted_proxies 127.0.0.0/8\n\t}\n}\n`;
    writeFileSync(join(dir, 'Caddyfile'), config);
    const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
    const child = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      env,
      stdio: 'ignore',
    });
    const proxy = new FrontProxy(child, dir, port);
    await waitUntil(
      async () => (await proxy.send({ path: '/healthz' }).catch(() => undefined)) !== undefined,
      10_000,
    );
    return proxy;
  }

  /** One request through the proxy, from loopback address `from`. */
  send(opts: {
    from?: string;
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
  }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
    return new Promise((resolve, reject) => {
      const headers = {
        ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}),
        ...opts.headers,
      };
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          localAddress: opts.from ?? '127.0.0.1',
          method: opts.method ?? 'GET',
          path: opts.path,
          headers,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end(opts.body);
    });
  }

  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    await new Promise((resolve) =>
      this.child.exitCode !== null ? resolve(undefined) : this.child.once('exit', resolve),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
