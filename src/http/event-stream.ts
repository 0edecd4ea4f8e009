// Sends a generation's progress as server-sent events on a hijacked reply: the headers the API
// set so far (request id, rate limit), then each event as it is recorded, a keep-alive comment
// every 15 s, and the end after the last event or when the client goes away.
import type { FastifyReply } from 'fastify';
import { SSE_KEEP_ALIVE, sseFrame } from '../lib/sse.ts';

const KEEP_ALIVE_MS = 15_000;

export async function streamEvents<T extends { seq: number; kind: string }>(
  reply: FastifyReply,
  events: (signal: AbortSignal) => AsyncIterable<T>,
): Promise<void> {
  const closed = new AbortController();
  const raw = reply.raw;
  reply.hijack();
  raw.on('close', () => closed.abort());
  const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined));
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-store',
    'x-accel-buffering': 'no',
  });
  raw.flushHeaders();
  const keepAlive = setInterval(() => raw.write(SSE_KEEP_ALIVE), KEEP_ALIVE_MS);
  try {
    for await (const event of events(closed.signal)) raw.write(sseFrame(event.seq, event.kind, event));
  } catch (error) {
    reply.log.error({ err: error }, 'event stream failed');
  } finally {
    clearInterval(keepAlive);
    raw.end();
  }
}
