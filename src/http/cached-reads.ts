// Repeated reads answered in front of Fastify. A GET of the API whose answer is in the read cache
// (read-cache.ts: a 200 the API gave this organization for this URL, with the database unchanged
// since) is answered here, on the raw request, when its key is one the server remembers and holds
// the `read` permission: the request is counted against the key's rate limit and gets the same
// bytes and headers the API's own path would send (request id, rate limit, retirement, content
// type) and, at LOG_LEVEL=info, the same two log lines. It skips only the framework's request
// lifecycle, which is most of what such a read costs.
//
// Everything else goes on to Fastify unchanged: a key to look up, a write, HEAD, a read not in the
// cache, and a request over its rate limit (its decision is handed on, see rate-limit.ts, so the
// guard answers the 429 without counting it twice). Nothing is answered here once the server is
// closing: Fastify answers those with 503.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context.ts';
import { bearerToken, isApiPath, retirementHeaders } from './api-guard.ts';
import { handOnDecidedRate, type RateDecision } from './rate-limit.ts';
import { ReadCache } from './read-cache.ts';
import { requestIdOf } from './request-id.ts';
import { writesInfo } from './request-logger.ts';

export interface CachedReads {
  /** Answers the request (a promise of true) or returns false, synchronously, for Fastify to answer it. */
  handle(req: IncomingMessage, res: ServerResponse): false | Promise<boolean>;
  /** Stops answering: from now on Fastify answers everything (and, closing, with 503). */
  stop(): void;
}

const JSON_REPLY = 'application/json; charset=utf-8';

export function createCachedReads(ctx: AppContext, cache: ReadCache, log: () => FastifyBaseLogger): CachedReads {
  const retirement = retirementHeaders(ctx);
  const { dataVersion } = ctx.database;
  let answering = dataVersion !== undefined;

  const send = (req: IncomingMessage, res: ServerResponse, rate: RateDecision, body: Buffer): void => {
    const id = requestIdOf(req);
    const logger = log();
    if (writesInfo(logger)) logRequest(logger, id, req, res);
    // In the order the API's own path sets them.
    res.writeHead(200, {
      'x-request-id': id,
      ...retirement,
      ...ctx.rateLimiter.headers(rate),
      'content-type': JSON_REPLY,
      'content-length': body.length,
    });
    res.end(body);
  };

  const answer = (req: IncomingMessage, res: ServerResponse, keyId: string, body: Buffer): Promise<boolean> =>
    ctx.rateLimiter.consume(`key:${keyId}`).then(
      (rate) => {
        if (!rate.allowed) {
          handOnDecidedRate(req, rate);
          return false;
        }
        try {
          send(req, res, rate, body);
          return true;
        } catch (error) {
          // Never an unhandled rejection: before anything is sent the API's own path answers
          // (with a 500 if it fails alike); after, the connection is cut.
          log().error({ err: error, url: req.url }, 'answering a cached read failed');
          if (!res.headersSent) return false;
          res.destroy();
          return true;
        }
      },
      // Counting failed (it falls back to memory when Redis is down, so hardly ever): let the
      // API's own path try, and answer whatever it finds.
      () => false,
    );

  return {
    handle(req, res) {
      const url = req.url!;
      if (!answering || req.method !== 'GET' || !isApiPath(url)) return false;
      const token = bearerToken(req.headers.authorization);
      if (token === undefined) return false;
      // Read before the cache is asked, as the guard does: both trust what was read at it.
      const version = dataVersion!();
      const caller = ctx.orgs.rememberedCaller(token, version);
      if (!caller?.permissions.includes('read')) return false;
      const body = cache.get(ReadCache.key(caller.orgId, url), version);
      return body === undefined ? false : answer(req, res, caller.keyId, body);
    },
    stop() {
      answering = false;
    },
  };
}

/** Writes "incoming request" now and "request completed" once the response is sent, as Fastify's own lines do. */
function logRequest(log: FastifyBaseLogger, reqId: string, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const child = log.child({ reqId });
  // What Fastify's request serializer reads of its request object.
  const view = { method: req.method, url: req.url, headers: req.headers, host: req.headers.host, ip: req.socket.remoteAddress, socket: req.socket };
  child.info({ req: view }, 'incoming request');
  // readCache: 'hit' tells an operator chasing a stale answer where this one came from.
  res.once('finish', () => child.info({ res, responseTime: performance.now() - started, readCache: 'hit' }, 'request completed'));
}
