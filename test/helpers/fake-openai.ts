// A fake OpenAI-compatible server on loopback, speaking the /v1/chat/completions wire format: a
// JSON completion, or (for a request with "stream": true) server-sent events chunk by chunk as the
// real API sends them. Each test queues what the next calls answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | {
      kind: 'answer';
      content: string;
      finishReason?: string;
      refusal?: string;
      /** Streaming: stop after this many characters of the content, by `cut` (default: destroying the socket). */
      cutAt?: number;
      /** `destroy`: the connection dies; `end`: the response ends cleanly, without finish or [DONE]. */
      cut?: 'destroy' | 'end';
      /** Streaming: pause once this many characters are sent, until release() (or `holdMs`). */
      holdAt?: number;
      /** The longest a hold lasts without release(); a second unless said. */
      holdMs?: number;
    }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'hang' };

export class FakeOpenAi {
  readonly requests: { path: string; body: any; authorization: string | undefined }[] = [];
  /** The content pieces of the last streamed answer, as sent. */
  lastChunks: string[] = [];
  /** Whether a streamed answer is paused at its holdAt. */
  held = false;
  private releaseHold: (() => void) | undefined;
  private readonly queue: Reply[] = [];
  private readonly hanging: ServerResponse[] = [];
  /** Hanging requests the client has given up on (closed its connection). */
  abandoned = 0;
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

  /** Drops the replies no call has taken (one queued for a generation cancelled before it asked). */
  forget(): void {
    this.queue.length = 0;
  }

  /** Lets a held stream go on. */
  release(): void {
    this.releaseHold?.();
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : null;
    this.requests.push({ path: req.url ?? '', body, authorization: req.headers.authorization });
    const next = this.queue.shift() ?? {
      kind: 'status',
      status: 500,
      body: { error: { message: 'nothing queued' } },
    };
    if (next.kind === 'hang') {
      this.hanging.push(res);
      res.on('close', () => this.abandoned++);
      return;
    }
    if (next.kind === 'status') {
      res
        .writeHead(next.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(next.body ?? { error: { message: `status ${next.status}`, type: 'error' } }));
      return;
    }
    if (body?.stream) return this.stream(next, res);
    const completion = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'fake',
      choices: [
        {
          index: 0,
          finish_reason: next.finishReason ?? 'stop',
          message: { role: 'assistant', content: next.content, refusal: next.refusal ?? null },
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion));
  }

  private async stream(reply: Extract<Reply, { kind: 'answer' }>, res: ServerResponse): Promise<void> {
    const created = Math.floor(Date.now() / 1000);
    const event = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created, model: 'fake', system_fingerprint: null, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const write = (text: string) => new Promise<void>((resolve) => res.write(text, () => resolve()));
    await write(event({ role: 'assistant', content: '', refusal: null }, null));
    if (reply.refusal) await write(event({ refusal: reply.refusal }, null));
    const content = reply.cutAt === undefined ? reply.content : reply.content.slice(0, reply.cutAt);
    this.lastChunks = split(content);
    let sent = 0;
    for (const [i, piece] of this.lastChunks.entries()) {
      if (reply.holdAt !== undefined && sent < reply.holdAt && sent + piece.length >= reply.holdAt) {
        await write(event({ content: piece }, null));
        sent += piece.length;
        await this.hold(res, reply.holdMs ?? 1_000);
        continue;
      }
      // Several events per write, and a turn of the event loop now and then, as a network would.
      res.write(event({ content: piece }, null));
      sent += piece.length;
      if (i % 16 === 15) await write('');
    }
    if (reply.cutAt !== undefined) {
      await write('');
      if (reply.cut === 'end') res.end();
      else res.socket?.destroy();
      return;
    }
    await write(event({}, reply.finishReason ?? 'stop'));
    res.end('data: [DONE]\n\n');
  }

  /** Pauses until release(), `ms`, or the client going away. */
  private async hold(res: ServerResponse, ms: number): Promise<void> {
    this.held = true;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        res.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      res.on('close', done);
      this.releaseHold = done;
    });
    this.held = false;
    this.releaseHold = undefined;
  }
}

/**
 * The content in small pieces of 1 to 7 characters (a fixed pseudo-random sequence, so a failure
 * repeats), cutting anywhere: inside strings, between a backslash and what it escapes.
 */
export function split(content: string, seed = 7): string[] {
  const pieces: string[] = [];
  let state = seed;
  for (let at = 0; at < content.length;) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const size = 1 + (state % 7);
    pieces.push(content.slice(at, at + size));
    at += size;
  }
  return pieces;
}

/** A complete page that passes the quality gate. */
export function page(title: string, body = '', head = ''): string {
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n${head}</head>\n<body>\n<h1>${title}</h1>\n${body}</body>\n</html>\n`;
}

export const GOOD_SITE = JSON.stringify({
  files: [
    {
      path: 'index.html',
      content:
        '<!doctype html><html lang="en"><head><title>Moon Cafe</title></head><body><h1>Moon Cafe</h1></body></html>',
    },
    { path: 'css/site.css', content: 'body{font-family:sans-serif}' },
  ],
  summary: 'Built a one-page site for Moon Cafe',
});
