// Entry point: config -> container -> HTTP server (the site edge in front of the REST API) +
// background workers. One graceful stop, used by `sitewright start` and `sitewright worker`: on
// SIGTERM/SIGINT the server stops accepting connections and the workers stop claiming; requests
// and jobs in flight finish, then the database closes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { loadConfig, type Config } from './config.ts';
import { createContainer, type Container } from './container.ts';
import { createDispatcher } from './events/dispatcher.ts';
import { createSiteHandler, type SiteHandler } from './edge/site-handler.ts';
import { sharedRegistrableDomain } from './lib/domain-layout.ts';
import { restApi } from './http/app.ts';
import { parserErrorHandler } from './http/framework-errors.ts';
import { createFrontDoor } from './web/front-door.ts';
import { pageForLongRequest, pageNotFound, pagesPlugin } from './ui/plugin.ts';
import { mcpPlugin } from './mcp/plugin.ts';
import { oauthPlugin } from './oauth/plugin.ts';
import { embedPlugin } from './embed/plugin.ts';
import { assetUrl } from './ui/routes/assets.ts';
import { registerMetricsRoute } from './web/metrics-route.ts';
import { methodLabel, type Telemetry } from './lib/telemetry.ts';
import { tracing, tracingOn } from './lib/tracing.ts';
import { DomainChecker } from './modules/domains/checker.ts';
import { MailSender } from './modules/mail/sender.ts';
import { FormDigestSweeper } from './modules/forms/digest.ts';
import { BillingSweeper } from './modules/billing/sweeper.ts';
import { BackupScheduler } from './modules/backups/scheduler.ts';
import { GenerationWorker } from './modules/generations/worker.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The HTTP server: a request whose Host names a published site, or a preview link, goes to the
 * site edge (raw node:http, before any framework); everything else comes in through the front
 * door (web/front-door.ts), where the REST API, the pages, MCP and OAuth are plugins side by
 * side. An unknown path is the API's JSON 404 under /api and the pages' 404 page elsewhere.
 * app.inject() reaches the front door only.
 */
export async function buildServer(container: Container, logger?: Logger): Promise<FastifyInstance> {
  const { config, services, rateLimiter } = container;
  const edge = createSiteHandler(
    {
      sites: services.sites,
      forms: services.forms,
      capture: services.capture,
      settings: config.sites,
      publicUrl: config.publicUrl,
      trustProxy: config.trustProxy,
    },
    logger,
  );
  const api = restApi(container);
  const app = createFrontDoor({
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
    ...(logger ? { logger } : {}),
    serverFactory: (handler) => createServer(edgeFirst(edge, handler, container.telemetry)),
    telemetry: container.telemetry,
    frameworkErrors: api.routerErrors,
    clientErrorHandler: parserErrorHandler(rateLimiter, pageForLongRequest),
    onClose: () => edge.close(),
  });
  await app.register(api.plugin);
  if (container.metrics && config.metrics) registerMetricsRoute(app, container.metrics, config.metrics);
  // The API reference page reads the document of the API it serves beside.
  await app.register(pagesPlugin({ config, services, openApiDocument: () => app.swagger() }));
  await app.register(mcpPlugin({ config, services, rateLimiter, allowedOrigins: config.mcpAllowedOrigins }));
  await app.register(oauthPlugin({ oauth: services.oauth, rateLimiter }));
  await app.register(
    embedPlugin({ services, rateLimiter, publicUrl: config.publicUrl, stylesheet: assetUrl('app.css') }),
  );
  app.setNotFoundHandler((request, reply) =>
    request.url === '/api' || request.url.startsWith('/api/')
      ? api.notFound(request, reply)
      : pageNotFound(request, reply),
  );
  await app.ready();
  return app;
}

function edgeFirst(edge: SiteHandler, api: Handler, telemetry: Telemetry): Handler {
  return (req, res) => {
    const started = performance.now();
    // What the edge answered is counted here; the front door counts its own.
    const counted = () => {
      const record = () =>
        telemetry.httpRequest(
          'edge',
          req.url?.startsWith('/preview/') ? 'preview' : 'site',
          methodLabel(req.method),
          res.statusCode,
          (performance.now() - started) / 1000,
        );
      if (res.writableFinished) record();
      else res.once('finish', record);
    };
    if (tracingOn())
      tracing().nameRequest(
        'edge',
        req.method ?? 'GET',
        req.url?.startsWith('/preview/') ? 'preview' : 'site',
      );
    const served = edge.handle(req, res);
    if (served === false) api(req, res);
    else if (served === true) counted();
    else void served.then((done) => (done ? counted() : api(req, res)));
  };
}

/** Something that finishes its work in flight when asked to stop. */
export interface Stoppable {
  stop(graceMs: number): Promise<void>;
}

/**
 * Stops everything on SIGTERM/SIGINT, gives work in flight SHUTDOWN_GRACE to finish (jobs still
 * running a second before that are left to their lease), closes the container and exits.
 */
export function stopOnSignals(
  config: Config,
  log: Logger,
  parts: Stoppable[],
  container: Pick<Container, 'close'>,
): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing work in flight');
    const force = setTimeout(() => {
      log.error('work in flight did not finish in time; exiting (jobs are left to their leases)');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    try {
      const grace = Math.max(0, config.shutdownGraceMs - 1_000);
      await Promise.all(parts.map((part) => part.stop(grace)));
      await container.close();
      // Spans still buffered are sent before the process goes (traces only).
      await tracing().flush();
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** The background workers of a process: webhook deliveries, AI generations, domain checks, billing's past-due sweep, scheduled backups. */
export function startWorkers(container: Container, log: Logger, opts: { all: boolean }): Stoppable[] {
  const { config, database } = container;
  const parts: (Stoppable & { start(): void })[] = [];
  const { telemetry } = container;
  if (opts.all || config.webhooks.dispatcher) parts.push(createDispatcher(database, config, log, telemetry));
  if (opts.all || config.generation.worker)
    parts.push(new GenerationWorker(database, container.services.aiModels, config, log, telemetry));
  // Cheap, and leased: every instance may run it.
  parts.push(new DomainChecker(container.services.domains, database, config, log, telemetry));
  parts.push(new BillingSweeper(container.services.billing.automations, log));
  // Leased: every instance may send; none sends one message twice at once.
  parts.push(new MailSender(database, container.mailer, {}, log, telemetry));
  parts.push(new FormDigestSweeper(database, config.publicUrl, log));
  // Leased by slot: every instance may run it, and exactly one makes each backup.
  if (config.backup.dirs.length > 0)
    parts.push(new BackupScheduler(container.services.backups, database, log));
  for (const part of parts) part.start();
  return parts;
}

export async function startServer(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const container = await createContainer(config, { logger: log });
  const app = await buildServer(container, log);
  await Promise.all([container.rateLimiter.ready(), container.accountThrottle.ready()]).catch(
    (error: unknown) => {
      log.warn({ err: error }, 'Redis not reachable yet; rate limits count in memory until it is');
    },
  );
  const shared = sharedRegistrableDomain(config.publicUrl, config.sites.domain);
  if (shared) {
    log.warn(
      { publicUrl: config.publicUrl, sitesDomain: config.sites.domain },
      `SITES_DOMAIN shares the registrable domain ${shared} with PUBLIC_URL: a published site's scripts can set cookies the dashboard receives. Give the sites a domain of their own (docs/operations.md, Production layout).`,
    );
  }
  const server: Stoppable = { stop: () => app.close() };
  await app.listen({ port: config.port, host: config.host });
  const workers = startWorkers(container, log, { all: false });
  stopOnSignals(config, log, [server, ...workers], container);
  log.info(
    {
      engine: container.database.engine,
      publicUrl: config.publicUrl,
      dispatcher: config.webhooks.dispatcher,
      generationWorker: config.generation.worker,
      models: container.providers.models,
    },
    'Sitewright API ready',
  );
}
