// The app factory: a configured Fastify instance that never listens by itself (main.ts does),
// so tests drive it through app.inject().
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './context.ts';
import { registerApiGuard, API_PREFIX } from './api-guard.ts';
import { registerErrorHandling } from './error-handler.ts';
import { registerDocsRoute, registerOpenApi } from './openapi.ts';
import { schemaErrorFormatter, validatorCompiler } from './validation.ts';
import { errorResponses } from './schemas.ts';
import { lazyRequestLogger } from './request-logger.ts';
import { createCachedReads } from './cached-reads.ts';
import { ReadCache } from './read-cache.ts';
import { requestIdOf } from './request-id.ts';
import { apiModules } from '../modules/index.ts';
import { createSiteHandler, type SiteHandler } from '../sites/hosting/serve.ts';
import { registerTlsAsk } from '../sites/hosting/tls-ask.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Published sites, forms and previews, served ahead of the API. */
    site: SiteHandler;
  }
}

export async function buildApp(ctx: AppContext, logger: FastifyServerOptions['logger'] = false): Promise<FastifyInstance> {
  // Published sites and preview links (sites/hosting/serve.ts), then repeated API reads
  // (cached-reads.ts), are answered on the raw request, before Fastify; everything else goes on to
  // the API. app.inject() reaches only the API.
  const site = createSiteHandler(ctx, { warn: (obj, msg) => app.log.warn(obj, msg), error: (obj, msg) => app.log.error(obj, msg) });
  const readCache = new ReadCache();
  const cachedReads = createCachedReads(ctx, readCache, () => app.log);
  const app: FastifyInstance = Fastify({
    logger,
    serverFactory: (fastify) => createServer(inFront([site.handle, cachedReads.handle], fastify)),
    requestIdHeader: false,
    genReqId: requestIdOf,
    childLoggerFactory: lazyRequestLogger,
    schemaErrorFormatter,
    trustProxy: false,
    return503OnClosing: true,
  });
  app.decorate('site', site);
  // Page views still queued are written before the database closes.
  app.addHook('onClose', () => site.close());
  // From the moment the server starts closing, Fastify answers every API request (with 503).
  app.addHook('preClose', (done) => {
    cachedReads.stop();
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerErrorHandling(app);
  registerApiGuard(app, ctx, readCache);
  await registerOpenApi(app, ctx);

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  registerTlsAsk(app, ctx);
  registerDocsRoute(app);
  // A route that takes no query parameters refuses any (400 naming it), as the others refuse
  // unknown ones: a typo such as ?limt=5 must never be silently ignored.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(API_PREFIX) && !route.schema?.querystring) {
      const response = route.schema?.response as Record<string, unknown> | undefined;
      route.schema = {
        ...route.schema,
        querystring: Type.Object({}, { additionalProperties: false }),
        // That refusal is a 400 the route's own schema may not list.
        ...(response && !response[400] ? { response: { ...response, 400: errorResponses(400)[400] } } : {}),
      };
    }
  });
  for (const routes of apiModules) {
    await app.register(routes(ctx), { prefix: API_PREFIX });
  }
  await app.ready();
  return app;
}

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Offers each request to the handlers in front of Fastify in turn (true: answered, false: not theirs), then to Fastify. */
function inFront(handlers: ((req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>)[], fastify: RequestHandler): RequestHandler {
  const offer = (req: IncomingMessage, res: ServerResponse, from: number): void => {
    for (let i = from; i < handlers.length; i++) {
      const served = handlers[i]!(req, res);
      if (served === true) return;
      if (served !== false) {
        void served.then((done) => done || offer(req, res, i + 1));
        return;
      }
    }
    fastify(req, res);
  };
  return (req, res) => offer(req, res, 0);
}
