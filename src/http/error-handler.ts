// Every failure leaves as exactly {"error": "<message>"}; a 500 never shows internals. Domain
// errors (modules/common/errors.ts) get theirs from web/errors.ts, as on every way in.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../modules/common/errors.ts';
import { domainErrorStatus } from '../web/errors.ts';
import { JSON_ANSWER_POLICY } from '../web/security-headers.ts';

/** An error the API itself raises with its status (401, 403 of a key, 415, 429 of the limiter). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Content-Type must be application/json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Request body is empty but Content-Type is application/json'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON in request body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body too large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
};

/** The API's error handler, the front door's default (other ways in set theirs in their contexts). */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { validationError?: boolean }, request, reply) => {
    if (error instanceof HttpError) {
      reply.headers(error.headers);
      return reply.status(error.statusCode).send({ error: error.message });
    }
    if (error instanceof DomainError) {
      const { status, headers } = domainErrorStatus(error);
      reply.headers(headers);
      return reply.status(status).send({ error: error.message });
    }
    if (error.validation || error.validationError) {
      return reply.status(400).send({ error: error.message });
    }
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    // A body refused for its size is left unread: close the connection so the client stops
    // sending it, rather than reading (and keeping) what is still on its way.
    if (known && known[0] === 413) reply.header('connection', 'close');
    if (known) return reply.status(known[0]).send({ error: known[1] });
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.status(400).send({ error: 'Malformed JSON in request body' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(status).send({ error: error.message });
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error' });
  });
}

/** An unknown path under /api: exactly {"error": "..."}, with the policy of a data answer. */
export function apiNotFound(request: FastifyRequest, reply: FastifyReply): void {
  // Outside /api/v1 no hook set the policy; this answer is JSON all the same.
  reply.header('content-security-policy', JSON_ANSWER_POLICY);
  reply.status(404).send({ error: `No route for ${request.method} ${request.url.split('?')[0]}` });
}
