// `sitewright worker`: the background workers without the HTTP API (webhook deliveries and AI
// generation jobs), for deployments that run them apart from the API instances (start those with
// WEBHOOK_DISPATCHER=false GENERATION_WORKER=false), or to add capacity. Any number may run
// against one PostgreSQL database.
import { pino } from 'pino';
import type { Config } from '../config.ts';
import { createDispatcher } from '../events/dispatcher.ts';
import { openMigratedDatabase } from '../runtime.ts';
import { createProviders } from '../sites/generate/registry.ts';
import { GenerationWorker } from '../sites/generate/worker.ts';
import { DomainChecker } from '../sites/domains/checker.ts';

export async function workerCommand(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  const database = await openMigratedDatabase(config);
  const dispatcher = createDispatcher(database, config, log);
  const generations = new GenerationWorker(database, createProviders(config), config, log);
  const domainChecker = new DomainChecker(database, config, log);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down: finishing attempts in flight');
    const force = setTimeout(() => {
      log.error('attempts did not finish in time; exiting (their leases will expire)');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    try {
      const grace = Math.max(0, config.shutdownGraceMs - 1_000);
      await Promise.all([dispatcher.stop(grace), generations.stop(grace), domainChecker.stop(grace)]);
      await database.close();
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  dispatcher.start();
  generations.start();
  domainChecker.start();
  log.info({ engine: database.engine }, 'Sitewright worker ready: webhook deliveries, generation jobs, domain checks');
}
