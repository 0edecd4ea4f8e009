// `sitewright worker`: the background workers without the HTTP server (webhook deliveries, AI
// generation jobs, domain checks), for deployments that run them apart from the API instances
// (start those with WEBHOOK_DISPATCHER=false GENERATION_WORKER=false), or to add capacity. Any
// number may run against one database.
import { pino } from 'pino';
import type { Config } from '../config.ts';
import { createContainer } from '../container.ts';
import { startWorkers, stopOnSignals } from '../main.ts';
import { startWorkerHealth } from './worker-health.ts';

export async function workerCommand(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  const container = await createContainer(config, { logger: log });
  const workers = startWorkers(container, log, { all: true });
  if (config.workerHealthPort !== undefined) {
    const port = config.workerHealthPort;
    const { metrics } = container;
    const access = config.metrics;
    workers.push(
      await startWorkerHealth(
        config.host,
        port,
        () => container.readiness(),
        metrics && access
          ? { access, contentType: metrics.contentType, render: () => metrics.render() }
          : undefined,
      ),
    );
    log.info({ port, metrics: Boolean(metrics) }, 'worker health: /healthz and /readyz');
  }
  stopOnSignals(config, log, workers, container);
  log.info(
    { engine: container.database.engine },
    'Sitewright worker ready: webhook deliveries, generation jobs, domain checks, billing sweep',
  );
}
