// What request logs may not show: secrets that travel in URLs. Every request logs through
// Fastify's own child logger (the request id on every line); its "incoming request" line takes
// its URL from requestForLog below.
import type { FastifyRequest } from 'fastify';
import { redactUrl } from '../lib/url-redaction.ts';

/**
 * Fastify's `req` serializer (the "incoming request" line), with the URL redacted. Only run when
 * that line is written, so a request at a level above `info` pays nothing.
 */
export function requestForLog(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
