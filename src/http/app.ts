// The app factory: a configured Fastify instance that never listens by itself (main.ts does),
// so tests drive it through app.inject().
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './context.ts';
import { registerApiGuard, API_PREFIX } from './api-guard.ts';
import { registerErrorHandling } from './error-handler.ts';
import { registerDocsRoute, registerOpenApi } from './openapi.ts';
import { schemaErrorFormatter, validatorCompiler } from './validation.ts';
import { apiModules } from '../modules/index.ts';
import { registerSiteHosting } from '../sites/hosting/serve.ts';
import { registerTlsAsk } from '../sites/hosting/tls-ask.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export async function buildApp(ctx: AppContext, logger: FastifyServerOptions['logger'] = false): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // Accept the caller's X-Request-Id when it is sane, so logs can be joined across services.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    schemaErrorFormatter,
    trustProxy: false,
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  // First: a request for a published site is answered before any API hook runs.
  registerSiteHosting(app, ctx, ctx.preview);
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
  for (const routes of apiModules) {
    await app.register(routes(ctx), { prefix: API_PREFIX });
  }
  await app.ready();
  return app;
}
