// The REST API's app factory: a configured Fastify instance that never listens by itself
// (main.ts does), so tests drive it through app.inject(). Every /api/v1 request runs through
// Fastify and its hooks; which requests reach Fastify at all (rather than the site edge) is
// main.ts's decision, handed in as `serverFactory`.
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from '../config.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { Services } from '../modules/index.ts';
import { registerApiGuard, isApiPath, API_PREFIX, type Identify, type ConnectorCheck } from './api-guard.ts';
import { parserErrorHandler, routerErrorHandler, type LongRequestPage } from './framework-errors.ts';
import { registerErrorHandling } from './error-handler.ts';
import { registerDocsRoute, registerOpenApi } from './openapi.ts';
import { schemaErrorFormatter, validatorCompiler } from './validation.ts';
import { requestForLog } from './log-redaction.ts';
import { requestIdOf } from './request-id.ts';
import { trustFunction } from '../lib/client-address.ts';
import { apiRoutes } from './routes/index.ts';
import { jsonAnswerHeaders, transportHeaders } from '../web/security-headers.ts';
import { registerInternalRoutes } from './routes/internal.ts';

/** What the API is built from (the container provides it). */
export interface ApiDeps {
  config: Config;
  rateLimiter: RateLimiter;
  services: Services;
}

export interface AppOptions {
  /** A pino logger; none: the API logs nothing. */
  logger?: FastifyServerOptions['loggerInstance'];
  serverFactory?: FastifyServerOptions['serverFactory'];
  /** Run when the server closes (what the caller put in front of the API lets go of its resources). */
  onClose?: () => void;
  /** Other ways in served by the same app outside /api/v1 (the pages), and their answer to unknown paths. */
  otherWaysIn?: {
    plugin: FastifyPluginAsync;
    notFound: (request: FastifyRequest, reply: FastifyReply) => void;
    longRequest?: LongRequestPage;
  };
}

export async function buildApp(deps: ApiDeps, opts: AppOptions = {}): Promise<FastifyInstance> {
  const { config, services } = deps;
  // The guard exists only after the app does; the router's refusals reach it through this holder.
  const guard: { identify?: Identify } = {};
  const security = { any: transportHeaders(config.publicUrl), api: jsonAnswerHeaders(config.publicUrl) };
  const app = Fastify({
    // The "incoming request" line's URL goes through redactUrl: links can carry secrets.
    ...(opts.logger
      ? { loggerInstance: opts.logger.child({}, { serializers: { req: requestForLog } }) }
      : { logger: false }),
    ...(opts.serverFactory ? { serverFactory: opts.serverFactory } : {}),
    requestIdHeader: false,
    genReqId: requestIdOf,
    schemaErrorFormatter,
    // request.ip: the rightmost X-Forwarded-For entry no trusted proxy added (lib/client-address.ts).
    trustProxy: config.trustProxy === false ? false : trustFunction(config.trustProxy),
    return503OnClosing: true,
    // Long path parameters reach validation (a 400 naming the parameter) instead of a 414.
    routerOptions: { maxParamLength: 2048 },
    frameworkErrors: routerErrorHandler(() => guard.identify, security.api),
    clientErrorHandler: parserErrorHandler(deps.rateLimiter, opts.otherWaysIn?.longRequest),
  }) as unknown as FastifyInstance;
  if (opts.onClose) app.addHook('onClose', async () => opts.onClose?.());
  app.setValidatorCompiler(validatorCompiler);
  // Every answer: its request id, nosniff and HSTS on https; an API answer also the policy of
  // data (web/security-headers.ts). The other ways in add theirs in their own contexts.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.headers(isApiPath(request.url) ? security.api : security.any);
    done();
  });
  registerErrorHandling(app, opts.otherWaysIn?.notFound);
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
  guard.identify = registerApiGuard(app, services.orgs, deps.rateLimiter, config, connector);
  await registerOpenApi(app, config);

  registerInternalRoutes(app, services.sites, config.sites.tlsAskAllow);
  registerDocsRoute(app);
  for (const routes of apiRoutes) {
    await app.register(routes({ services, config }), { prefix: API_PREFIX });
  }
  if (opts.otherWaysIn) await app.register(opts.otherWaysIn.plugin);
  await app.ready();
  return app;
}
