// Requests that Fastify's router or Node's HTTP parser refuse before any hook runs still answer
// as the API does: exactly {"error": "..."}, a request id, and (when the URL is an API one) the
// rate-limit headers, counted against the caller's credential or address, 401 before 400.
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import { apiKeyOf, isApiPath, type Identify } from './api-guard.ts';
import { HttpError } from './error-handler.ts';

const ROUTER_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL holds a malformed percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
};

/**
 * Fastify's `frameworkErrors`: `identify` is the API guard's first step, bound once it exists;
 * `headers` are those of a JSON answer (no hook has run to set them).
 */
export function routerErrorHandler(
  identify: () => Identify | undefined,
  headers: Readonly<Record<string, string>> = {},
) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.header('x-request-id', request.id);
    reply.headers(headers);
    const message = ROUTER_MESSAGES[error.code] ?? 'Bad request';
    try {
      if (isApiPath(request.url)) {
        const caller = await identify()?.(request, reply);
        if (!caller) {
          const token = apiKeyOf(request.headers.authorization);
          throw new HttpError(
            401,
            token ? 'Invalid or revoked API key' : 'Missing API key: send "Authorization: Bearer wk_..."',
          );
        }
      }
      await reply.status(400).send({ error: message });
    } catch (refusal) {
      const known = refusal instanceof HttpError ? refusal : new HttpError(500, 'Internal server error');
      await reply.status(known.statusCode).headers(known.headers).send({ error: known.message });
    }
  };
}

/** The HTML page (and its CSP) for a request whose headers overflowed, given its start; undefined: JSON. */
export type LongRequestPage = (head: string) => { html: string; policy: string } | undefined;

function sendPage(socket: Socket, page: { html: string; policy: string }): void {
  if (!socket.writable) return void socket.destroy();
  const headers = {
    'x-request-id': randomUUID(),
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': page.policy,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(page.html)),
    connection: 'close',
  };
  socket.end(
    `HTTP/1.1 431 Request Header Fields Too Large\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n${page.html}`,
  );
}

/**
 * Fastify's `clientErrorHandler`, for requests Node's parser cannot read (a broken request line,
 * headers over the size limit): the answer is JSON like any other, counted against the address,
 * and the connection is closed.
 */
export function parserErrorHandler(rateLimiter: RateLimiter, pageFor?: LongRequestPage) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // A person's browser (a long build link) gets a page saying what to do, not JSON.
    const raw = (error as { rawPacket?: unknown }).rawPacket;
    const head = Buffer.isBuffer(raw) ? raw.toString('latin1', 0, 4096) : '';
    const page = error.code === 'HPE_HEADER_OVERFLOW' ? pageFor?.(head) : undefined;
    if (page) return sendPage(socket, page);
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request took too long to arrive']
          : [400, 'Bad Request', 'The request could not be parsed as HTTP'];
    const send = (headers: Record<string, string>) => {
      if (!socket.writable) return socket.destroy();
      const body = JSON.stringify({ error: message });
      const lines = Object.entries({
        ...headers,
        'x-request-id': randomUUID(),
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
      });
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\n${lines.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${body}`,
      );
    };
    rateLimiter.consume(`ip:${socket.remoteAddress ?? 'unknown'}`).then(
      (rate) => send(rateLimiter.headers(rate)),
      () => send({}),
    );
  };
}
