// The REST API as one plugin of the front door (web/front-door.ts), registered by main.ts beside
// the pages, MCP and OAuth. Its hooks see every request and act on /api/v1 ones (the guard, the
// headers of a data answer); its error handler is the front door's default, which the other ways
// in replace in their own contexts. buildApp is the API alone behind a front door, for tests that
// drive it through app.inject().
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Readiness } from '../lib/readiness.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { Services } from '../modules/index.ts';
import {
  registerApiGuard,
  isApiPath,
  API_PREFIX,
  EMBED_API_PREFIX,
  type Identify,
  type ConnectorCheck,
} from './api-guard.ts';
import { embedSessionRoutes } from './routes/embed-sessions.ts';
import { parserErrorHandler, routerErrorHandler } from './framework-errors.ts';
import { apiNotFound, registerErrorHandling } from './error-handler.ts';
import { registerDocsRoute, registerOpenApi } from './openapi.ts';
import { schemaErrorFormatter, validatorCompiler } from './validation.ts';
import { apiRoutes } from './routes/index.ts';
import { jsonAnswerHeaders } from '../web/security-headers.ts';
import { createFrontDoor, type FrontDoorOptions } from '../web/front-door.ts';
import { registerInternalRoutes } from './routes/internal.ts';
import { registerStripeWebhooks } from './routes/stripe-webhooks.ts';

/** What the API is built from (the container provides it). */
export interface ApiDeps {
  config: Config;
  rateLimiter: RateLimiter;
  services: Services;
  /** What /readyz answers (container.ts). */
  readiness(): Promise<Readiness>;
}

export interface RestApi {
  plugin: FastifyPluginAsync;
  /** The front door's `frameworkErrors`: a URL the router refuses, answered (and counted) as the API answers. */
  routerErrors: NonNullable<FrontDoorOptions['frameworkErrors']>;
  /** The answer to an unknown path under /api: exactly {"error": "..."}. */
  notFound: (request: FastifyRequest, reply: FastifyReply) => void;
}

export function restApi(deps: ApiDeps): RestApi {
  const { config, services } = deps;
  // The guard exists once the plugin runs; the router's refusals reach it through this holder.
  const guard: { identify?: Identify } = {};
  const dataHeaders = jsonAnswerHeaders(config.publicUrl);
  const plugin = async (app: FastifyInstance) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSchemaErrorFormatter(schemaErrorFormatter);
    app.addHook('onRequest', (request, reply, done) => {
      if (isApiPath(request.url)) reply.headers(dataHeaders);
      done();
    });
    registerErrorHandling(app);
    // OAuth access tokens of the MCP resource, accepted as connector tokens on GET /api/v1/projects.
    const mcpResource = `${new URL(config.publicUrl).origin}/api/mcp`;
    const connector: ConnectorCheck = async (token) => {
      const owner = await services.oauth.verifyAccess(token, mcpResource);
      return (
        owner && {
          orgId: owner.orgId,
          keyId: `user:${owner.userId}`,
          permissions: ['read'],
          ...(owner.orgClientId ? { clientId: owner.orgClientId } : {}),
        }
      );
    };
    guard.identify = registerApiGuard(app, services, deps.rateLimiter, config, connector);
    await registerOpenApi(app, config);
    registerInternalRoutes(app, services.sites, config.sites.tlsAskAllow, deps.readiness);
    registerDocsRoute(app);
    await registerStripeWebhooks(app, services.billing);
    for (const routes of apiRoutes) {
      await app.register(routes({ services, config }), { prefix: API_PREFIX });
    }
    await app.register(embedSessionRoutes({ services, config }), { prefix: EMBED_API_PREFIX });
  };
  return {
    // Not encapsulated: the guard and the error handler are the front door's (see above).
    plugin: fastifyPlugin(plugin, { name: 'rest-api' }),
    routerErrors: routerErrorHandler(() => guard.identify, dataHeaders),
    notFound: apiNotFound,
  };
}

/** The REST API alone behind a front door, ready (tests drive it through app.inject()). */
export async function buildApp(
  deps: ApiDeps,
  opts: { logger?: FrontDoorOptions['logger'] } = {},
): Promise<FastifyInstance> {
  const api = restApi(deps);
  const app = createFrontDoor({
    publicUrl: deps.config.publicUrl,
    trustProxy: deps.config.trustProxy,
    ...(opts.logger ? { logger: opts.logger } : {}),
    frameworkErrors: api.routerErrors,
    clientErrorHandler: parserErrorHandler(deps.rateLimiter),
  });
  await app.register(api.plugin);
  app.setNotFoundHandler(api.notFound);
  await app.ready();
  return app;
}
