// What request logs may not show: secrets that travel in URLs. Every request logs through
// Fastify's own child logger (the request id on every line); its "incoming request" line takes
// its URL from requestForLog below.
import type { FastifyRequest } from 'fastify';

// Secrets that travel in a URL, and so reached the info log's "incoming request" line: the
// tokens of reset, invitation and sign-up confirmation links (the path segment after these), the
// build link's tokens and its whole prompt, and an OAuth code and state coming back from Connect
// with Stripe (query parameters). A `next` that holds one of them (the sign-in page's way back to
// a build link) is redacted whole.
const SECRET_PATH = /^(\/(?:reset-password|invitations|sign-up\/confirm)\/)[^/?#]+/;
const SECRET_PARAMS = new Set(['link', 'pending', 'prompt', 'code', 'state']);
const REDACTED = '[redacted]';

/** The URL as the log writes it: `/reset-password/[redacted]`, `/build?prompt=[redacted]&org=...`. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = (mark === -1 ? url : url.slice(0, mark)).replace(SECRET_PATH, `$1${REDACTED}`);
  return mark === -1 ? path : `${path}?${redactQuery(url.slice(mark + 1))}`;
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = decoded(pair.slice(0, eq));
      if (SECRET_PARAMS.has(name)) return `${pair.slice(0, eq)}=${REDACTED}`;
      if (name === 'next') {
        const next = decoded(pair.slice(eq + 1));
        if (redactUrl(next) !== next) return `${pair.slice(0, eq)}=${REDACTED}`;
      }
      return pair;
    })
    .join('&');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

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
