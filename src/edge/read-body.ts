// Reads a small request body on the raw Node request (site forms, the page-view beacon): a declared
// Content-Length over the limit is refused at once, a body without one (chunked) as soon as its
// bytes pass the limit. Either way the client gets a 413 it can read, not a reset connection.
import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { EdgeError } from './respond.ts';

/**
 * How much of a refused body is still read (and dropped) after the refusal. A client writes its
 * whole body before it reads the answer; closing a socket that still has unread bytes sends a
 * reset, and the client loses the 413 with it. Past this, the client is cut off all the same.
 */
const DRAIN_LIMIT = 1_048_576;

/** The body as UTF-8 text; an EdgeError (413, or 400 for a broken body) when it cannot be had. */
export async function readBody(req: IncomingMessage, max: number, tooLargeMessage: string): Promise<string> {
  try {
    return await getRawBody(req, {
      limit: max,
      length: req.headers['content-length'] ?? null,
      encoding: 'utf8',
    });
  } catch (error) {
    const type = (error as { type?: unknown }).type;
    if (type !== 'entity.too.large' && type !== 'request.aborted' && type !== 'request.size.invalid')
      throw error;
    discardRest(req);
    throw type === 'entity.too.large'
      ? new EdgeError(413, tooLargeMessage)
      : new EdgeError(400, 'The request body was cut short');
  }
}

/** Reads the rest of a refused body into nothing, so the connection can carry the answer. */
function discardRest(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  let left = DRAIN_LIMIT;
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) req.destroy();
  });
  req.resume();
}
