// A fake OpenAI-compatible server on loopback, speaking the /v1/chat/completions wire format.
// Each test queues what the next calls answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { kind: 'answer'; content: string; finishReason?: string; refusal?: string }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'hang' };

export class FakeOpenAi {
  readonly requests: { path: string; body: any; authorization: string | undefined }[] = [];
  private readonly queue: Reply[] = [];
  private readonly hanging: ServerResponse[] = [];
  private server!: Server;
  baseUrl = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  reply(...replies: Reply[]): void {
    this.queue.push(...replies);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    this.requests.push({ path: req.url ?? '', body: raw ? JSON.parse(raw) : null, authorization: req.headers.authorization });
    const next = this.queue.shift() ?? { kind: 'status', status: 500, body: { error: { message: 'nothing queued' } } };
    if (next.kind === 'hang') {
      this.hanging.push(res);
      return;
    }
    if (next.kind === 'status') {
      res.writeHead(next.status, { 'content-type': 'application/json' }).end(JSON.stringify(next.body ?? { error: { message: `status ${next.status}`, type: 'error' } }));
      return;
    }
    const body = {
      id: 'chatcmpl-1', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: 'fake',
      choices: [{ index: 0, finish_reason: next.finishReason ?? 'stop', message: { role: 'assistant', content: next.content, refusal: next.refusal ?? null } }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}

export const GOOD_SITE = JSON.stringify({
  files: [
    { path: 'index.html', content: '<!doctype html><html lang="en"><head><title>Moon Cafe</title></head><body><h1>Moon Cafe</h1></body></html>' },
    { path: 'css/site.css', content: 'body{font-family:sans-serif}' },
  ],
  summary: 'Built a one-page site for Moon Cafe',
});
