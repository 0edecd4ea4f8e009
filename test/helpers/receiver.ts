// A real plain-HTTP webhook receiver on loopback. It records every request and answers as each
// path is told to; `verify` checks a delivery with both standardwebhooks and svix.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer after this long; a very long delay makes the attempt time out. */
  delayMs?: number;
}

type Behaviour = (request: Received, nth: number) => Reply;

export class Receiver {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly counts = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server!: Server;
  private port = 0;

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await receiver.listen();
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests received but not yet answered (held by a delayed reply). */
  get waiting(): number {
    return this.timers.size;
  }

  /** How the receiver answers on `path` (default: 200 "ok"). */
  on(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves once `count` requests reached `path`. */
  async waitFor(path: string, count: number, timeoutMs = 5_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > deadline)
        throw new Error(
          `receiver: ${this.at(path).length} of ${count} requests on ${path} after ${timeoutMs} ms`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.at(path);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        let json: unknown = undefined;
        try {
          json = JSON.parse(body);
        } catch {
          // Not every request is JSON; `json` stays undefined.
        }
        const request: Received = { path, headers: req.headers, body, json, at: Date.now() };
        this.received.push(request);
        const nth = (this.counts.get(path) ?? 0) + 1;
        this.counts.set(path, nth);
        const reply = this.behaviours.get(path)?.(request, nth) ?? {};
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
          res.end(reply.body ?? 'ok');
        };
        if (!reply.delayMs) return send();
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          send();
        }, reply.delayMs);
        this.timers.add(timer);
      });
    });
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      }),
    );
  }
}

function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
  );
}

/** Verifies a delivery with both libraries; throws if either refuses it. Returns the parsed payload. */
export function verify(secret: string, request: Pick<Received, 'body' | 'headers'>): any {
  const headers = headerRecord(request.headers);
  const fromStandard = new StandardWebhook(secret).verify(request.body, headers);
  const fromSvix = new SvixWebhook(secret).verify(request.body, headers);
  return { standard: fromStandard, svix: fromSvix };
}
