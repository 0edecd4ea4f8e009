// The app factory: a configured Fastify instance that never listens by itself (main.ts does),
// so tests drive it through app.inject().
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './context.ts';
import { registerApiGuard, API_PREFIX } from './api-guard.ts';
import { registerErrorHandling } from './error-handler.ts';
import { registerDocsRoute, registerOpenApi } from './openapi.ts';
import { schemaErrorFormatter, validatorCompiler } from './validation.ts';
import { errorResponses } from './schemas.ts';
import { lazyRequestLogger } from './request-logger.ts';
import { apiModules } from '../modules/index.ts';
import { createSiteHandler, type SiteHandler } from '../sites/hosting/serve.ts';
import { registerTlsAsk } from '../sites/hosting/tls-ask.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Published sites, forms and previews, served ahead of the API. */
    site: SiteHandler;
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export async function buildApp(ctx: AppContext, logger: FastifyServerOptions['logger'] = false): Promise<FastifyInstance> {
  // Published sites and preview links are answered on the raw request, before Fastify (see
  // sites/hosting/serve.ts); everything else goes on to the API. app.inject() reaches only the API.
  const site = createSiteHandler(ctx, { warn: (obj, msg) => app.log.warn(obj, msg), error: (obj, msg) => app.log.error(obj, msg) });
  const app: FastifyInstance = Fastify({
    logger,
    serverFactory: (handler) =>
      createServer((req, res) => {
        const served = site.handle(req, res);
        if (served === false) handler(req, res);
        else if (served !== true) void served.then((done) => done || handler(req, res));
      }),
    // Accept the caller's X-Request-Id when it is sane, so logs can be joined across services.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    childLoggerFactory: lazyRequestLogger,
    schemaErrorFormatter,
    trustProxy: false,
    return503OnClosing: true,
  });
  app.decorate('site', site);
  // Page views still queued are written before the database closes.
  app.addHook('onClose', () => site.close());
  app.setValidatorCompiler(validatorCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerErrorHandling(app);
  registerApiGuard(app, ctx);
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
