// Every request's id: the caller's X-Request-Id when it is sane, so logs can be joined across
// services, else a new UUID. Echoed in X-Request-Id and carried by every log line of the request.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
