// Sends a generation's progress as server-sent events on a hijacked reply: the headers the API
// set so far (request id, rate limit), then the stream (lib/sse.ts).
import type { FastifyReply } from 'fastify';
import { writeEventStream } from '../lib/sse.ts';

export async function streamEvents<T extends { seq: number; kind: string }>(
  reply: FastifyReply,
  events: (signal: AbortSignal) => AsyncIterable<T>,
): Promise<void> {
  reply.hijack();
  const headers = Object.fromEntries(
    Object.entries(reply.getHeaders()).filter(
      (entry): entry is [string, string | number | string[]] => entry[1] !== undefined,
    ),
  );
  await writeEventStream(reply.raw, headers, events, (error) =>
    reply.log.error({ err: error }, 'event stream failed'),
  );
}
