// Entry point: config -> database (migrated) -> HTTP server + webhook dispatcher + generation worker. On
// SIGTERM/SIGINT the server stops accepting connections and the dispatcher stops claiming;
// in-flight requests and delivery attempts finish, then the database closes.
import { loadConfig } from './config.ts';
import { createDispatcher } from './events/dispatcher.ts';
import { buildApp } from './http/app.ts';
import { createRuntime } from './runtime.ts';
import { GenerationWorker } from './sites/generate/worker.ts';
import { DomainChecker } from './sites/domains/checker.ts';

export async function startServer(): Promise<void> {
  const config = loadConfig();
  const runtime = await createRuntime(config);
  const app = await buildApp(runtime.ctx, { level: config.logLevel });
  await runtime.ctx.rateLimiter.ready().catch((error: unknown) => {
    app.log.warn({ err: error }, 'Redis not reachable yet; rate limits count in memory until it is');
  });

  const dispatcher = config.webhooks.dispatcher ? createDispatcher(runtime.ctx.database, config, app.log) : undefined;
  // Cheap, and leased: every instance may run it.
  const domainChecker = new DomainChecker(runtime.ctx.database, config, app.log);
  const generations = config.generation.worker ? new GenerationWorker(runtime.ctx.database, runtime.ctx.providers, config, app.log) : undefined;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    try {
      // Attempts still running a second before the forced exit are left to their lease.
      const grace = Math.max(0, config.shutdownGraceMs - 1_000);
      await Promise.all([app.close(), dispatcher?.stop(grace), generations?.stop(grace), domainChecker.stop(grace)]);
      await runtime.close();
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  dispatcher?.start();
  generations?.start();
  domainChecker.start();
  app.log.info(
    { engine: runtime.ctx.database.engine, publicUrl: config.publicUrl, dispatcher: Boolean(dispatcher), generationWorker: Boolean(generations), models: runtime.ctx.providers.models },
    'Sitewright API ready',
  );
}
