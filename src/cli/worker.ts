// `sitewright worker`: the webhook dispatcher without the HTTP API, for deployments that run
// delivery apart from the API instances (start those with WEBHOOK_DISPATCHER=false), or to add
// delivery capacity. Any number may run against one PostgreSQL database.
import { pino } from 'pino';
import type { Config } from '../config.ts';
import { createDispatcher } from '../events/dispatcher.ts';
import { openMigratedDatabase } from '../runtime.ts';

export async function workerCommand(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  const database = await openMigratedDatabase(config);
  const dispatcher = createDispatcher(database, config, log);

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
      await dispatcher.stop(Math.max(0, config.shutdownGraceMs - 1_000));
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
  log.info({ engine: database.engine }, 'Sitewright webhook worker ready');
}
