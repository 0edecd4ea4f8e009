// METRICS=on: the Telemetry port counted with prom-client in a registry of our own, plus what the
// database says at each scrape (modules/operations/repo.ts), the PostgreSQL pool, and Node's own
// (event-loop lag, memory, GC) from prom-client's default metrics. docs/operations.md lists them.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Telemetry } from '../../lib/telemetry.ts';
import type { OperationalStats } from '../../modules/operations/repo.ts';

export interface PrometheusDeps {
  stats: () => Promise<OperationalStats>;
  /** The PostgreSQL pool's counts; undefined on SQLite (no pool: one writer, one reader). */
  pool?: () => { total: number; idle: number; waiting: number };
}

export interface Prometheus {
  telemetry: Telemetry;
  contentType: string;
  /** The exposition text, with the database's figures read now. */
  render(): Promise<string>;
  registry: Registry;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const GENERATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600];

export function createPrometheus(deps: PrometheusDeps): Prometheus {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const http = new Histogram({
    name: 'sitewright_http_request_duration_seconds',
    help: 'HTTP requests answered, by way in (api, pages, mcp, oauth, embed, edge, internal), route pattern, method and status',
    labelNames: ['surface', 'route', 'method', 'status'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  const webhook = new Histogram({
    name: 'sitewright_webhook_attempt_duration_seconds',
    help: 'Webhook delivery attempts by outcome (succeeded: a 2xx)',
    labelNames: ['outcome'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  const generation = new Histogram({
    name: 'sitewright_generation_run_duration_seconds',
    help: 'AI generation attempts run by this process, by the state they left the generation in',
    labelNames: ['status'],
    buckets: GENERATION_BUCKETS,
    registers,
  });
  const domainChecks = new Counter({
    name: 'sitewright_domain_checks_total',
    help: 'Custom-domain DNS checks, by the state they left the domain in',
    labelNames: ['status'],
    registers,
  });
  const mails = new Counter({
    name: 'sitewright_mail_attempts_total',
    help: 'Tries to send queued mail (form messages), by outcome: sent, retry, failed (given up)',
    labelNames: ['outcome'],
    registers,
  });
  const backlog = new Gauge({
    name: 'sitewright_webhook_backlog',
    help: 'Webhook deliveries pending (due now or waiting to be retried)',
    registers,
  });
  const oldest = new Gauge({
    name: 'sitewright_webhook_backlog_oldest_seconds',
    help: 'Age of the oldest pending webhook delivery; 0 with none pending',
    registers,
  });
  const generations = new Gauge({
    name: 'sitewright_generations',
    help: 'AI generations queued or running',
    labelNames: ['status'],
    registers,
  });
  const domains = new Gauge({
    name: 'sitewright_domains',
    help: 'Custom domains by state',
    labelNames: ['status'],
    registers,
  });
  const backup = new Gauge({
    name: 'sitewright_backup_last_timestamp_seconds',
    help: 'When the last backup that succeeded (outcome="succeeded") or failed (outcome="failed") ended; absent: none yet',
    labelNames: ['outcome'],
    registers,
  });
  const pool = deps.pool
    ? new Gauge({
        name: 'sitewright_db_pool_connections',
        help: 'PostgreSQL pool: connections open (total), idle, and queries waiting for one (waiting)',
        labelNames: ['state'],
        registers,
      })
    : undefined;

  const telemetry: Telemetry = {
    httpRequest: (surface, route, method, status, seconds) =>
      http.observe({ surface, route, method, status: String(status) }, seconds),
    webhookAttempt: (outcome, seconds) => webhook.observe({ outcome }, seconds),
    generationRun: (status, seconds) => generation.observe({ status }, seconds),
    domainCheck: (status) => domainChecks.inc({ status }),
    mailAttempt: (outcome) => mails.inc({ outcome }),
  };

  return {
    telemetry,
    contentType: registry.contentType,
    registry,
    async render() {
      const stats = await deps.stats();
      backlog.set(stats.webhookBacklog);
      oldest.set(stats.webhookOldestSeconds);
      for (const [status, n] of Object.entries(stats.generations)) generations.set({ status }, n);
      for (const [status, n] of Object.entries(stats.domains)) domains.set({ status }, n);
      backup.reset();
      if (stats.lastBackupSuccess !== null) backup.set({ outcome: 'succeeded' }, stats.lastBackupSuccess);
      if (stats.lastBackupFailure !== null) backup.set({ outcome: 'failed' }, stats.lastBackupFailure);
      if (pool && deps.pool) {
        const counts = deps.pool();
        for (const state of ['total', 'idle', 'waiting'] as const) pool.set({ state }, counts[state]);
      }
      return registry.metrics();
    },
  };
}
