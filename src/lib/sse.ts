// Server-sent events (the text/event-stream format of the HTML standard): one frame per event,
// with its id (what the browser sends back as Last-Event-ID to resume), its name and JSON data.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

export function sseFrame(id: number, event: string, data: unknown): string {
  // JSON.stringify never emits a raw newline, so the data is one `data:` line.
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: keeps proxies from closing a quiet stream. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

/** The position to resume after: a Last-Event-ID header of decimal digits, else `fallback`. */
export function resumeAfter(lastEventId: string | string[] | undefined, fallback = 0): number {
  const value = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
  return value !== undefined && /^\d{1,10}$/.test(value) ? Math.min(Number(value), 2_147_483_647) : fallback;
}

const KEEP_ALIVE_MS = 15_000;

/**
 * Sends events on a raw response the framework has let go of: `headers` with the stream's own,
 * then each event as it comes, a keep-alive comment every 15 s, and the end after the last event
 * or when the client goes away (the events' signal aborts then).
 */
export async function writeEventStream<T extends { seq: number; kind: string }>(
  raw: ServerResponse,
  headers: OutgoingHttpHeaders,
  events: (signal: AbortSignal) => AsyncIterable<T>,
  onError: (error: unknown) => void,
): Promise<void> {
  const closed = new AbortController();
  raw.on('close', () => closed.abort());
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
    onError(error);
  } finally {
    clearInterval(keepAlive);
    raw.end();
  }
}
