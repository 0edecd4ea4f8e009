// The benchmark's receiver runs in a worker thread, so its work does not share the event loop
// with the dispatcher under test. Paths /hook/0../hook/8 answer 204 at once; /hook/dead never
// answers, so every attempt to it runs into the delivery timeout. The code is plain CommonJS
// evaluated in the worker (worker threads do not load TypeScript).
import { Worker } from 'node:worker_threads';

const CODE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
let latencies = [];
let healthy = 0;
let dead = 0;
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/hook/dead') { dead++; return; }
    const now = Date.now();
    const { timestamp } = JSON.parse(Buffer.concat(chunks).toString());
    latencies.push(now - Date.parse(timestamp));
    healthy++;
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (msg) => {
  if (msg === 'stats') {
    parentPort.postMessage({ healthy, dead, latencies });
    latencies = [];
  }
  if (msg === 'close') { server.closeAllConnections(); server.close(); parentPort.close(); }
});
`;

export interface ReceiverStats {
  healthy: number;
  dead: number;
  /** Event-to-delivery milliseconds of the healthy deliveries since the previous call. */
  latencies: number[];
}

export class BenchReceiver {
  private constructor(
    private readonly worker: Worker,
    readonly port: number,
  ) {}

  static async start(): Promise<BenchReceiver> {
    const worker = new Worker(CODE, { eval: true });
    const { port } = await new Promise<{ port: number }>((resolve) => worker.once('message', resolve));
    return new BenchReceiver(worker, port);
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  stats(): Promise<ReceiverStats> {
    const reply = new Promise<ReceiverStats>((resolve) => this.worker.once('message', resolve));
    this.worker.postMessage('stats');
    return reply;
  }

  async close(): Promise<void> {
    this.worker.postMessage('close');
    await this.worker.terminate();
  }
}
