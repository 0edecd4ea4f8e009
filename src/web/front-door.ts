// The one HTTP server every way in stands behind (main.ts registers the REST API, the pages, MCP
// and OAuth on it as equal plugins): what every request gets whichever way in answers it. Its
// request id (the caller's X-Request-Id when sane, else a new one), the client address as the
// trusted proxies tell it (lib/client-address.ts), the log line with secrets taken out of its
// URL, HSTS and nosniff, a 503 while the server closes, and long path parameters let through to
// validation. What the router and Node's parser refuse before any way in sees the request is
// answered by the handlers main.ts hands in (the API's JSON, the pages' long-request page).
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { trustFunction, type TrustProxy } from '../lib/client-address.ts';
import { requestForLog } from './log-redaction.ts';
import { requestIdOf } from './request-id.ts';
import { transportHeaders } from './security-headers.ts';
import { methodLabel, surfaceOf, type Telemetry } from '../lib/telemetry.ts';
import { tracing, tracingOn } from '../lib/tracing.ts';

export interface FrontDoorOptions {
  publicUrl: string;
  trustProxy: TrustProxy;
  /** A pino logger; none: nothing is logged. */
  logger?: FastifyServerOptions['loggerInstance'];
  serverFactory?: FastifyServerOptions['serverFactory'];
  /** Answers what the router refuses (a malformed URL) before any hook runs. */
  frameworkErrors?: FastifyServerOptions['frameworkErrors'];
  /** Answers what Node's HTTP parser refuses (a head too large) before Fastify sees it. */
  clientErrorHandler?: FastifyServerOptions['clientErrorHandler'];
  /** Run when the server closes (what stands in front of it lets go of its resources). */
  onClose?: () => void;
  /** Told of every request answered, by way in, route pattern, method and status. */
  telemetry?: Telemetry;
}

export function createFrontDoor(options: FrontDoorOptions): FastifyInstance {
  const { logger } = options;
  const app = Fastify({
    // The "incoming request" line's URL goes through redactUrl: links can carry secrets.
    ...(logger
      ? { loggerInstance: logger.child({}, { serializers: { req: requestForLog } }) }
      : { logger: false }),
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    requestIdHeader: false,
    genReqId: requestIdOf,
    // request.ip: the rightmost X-Forwarded-For entry no trusted proxy added.
    trustProxy: options.trustProxy === false ? false : trustFunction(options.trustProxy),
    return503OnClosing: true,
    // Long path parameters reach validation (a 400 naming the parameter) instead of a 414.
    routerOptions: { maxParamLength: 2048 },
    ...(options.frameworkErrors ? { frameworkErrors: options.frameworkErrors } : {}),
    ...(options.clientErrorHandler ? { clientErrorHandler: options.clientErrorHandler } : {}),
  }) as unknown as FastifyInstance;
  if (options.onClose) app.addHook('onClose', async () => options.onClose?.());
  const transport = transportHeaders(options.publicUrl);
  // Every answer: its request id, and nosniff and HSTS on https. Each way in adds its own.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.headers(transport);
    done();
  });
  if (tracingOn())
    app.addHook('onRequest', (request, _reply, done) => {
      const route = request.routeOptions.url;
      if (route) tracing().nameRequest(surfaceOf(route), request.method, route);
      done();
    });
  const { telemetry } = options;
  if (telemetry)
    app.addHook('onResponse', (request, reply, done) => {
      // The pattern, never the path: ids and emails in paths would make a series each.
      const route = request.routeOptions.url;
      const surface = surfaceOf(route ?? request.url);
      telemetry.httpRequest(
        surface,
        route ?? 'unmatched',
        methodLabel(request.method),
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  return app;
}
