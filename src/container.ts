// Builds everything once: the database (migrated), the rate limiters, the AI providers and every
// service of the core. The server (main.ts), the CLI, the worker process and the tests all start
// from here, so each runs the same objects wired the same way.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/index.ts';
import { migrateToLatest, migrationState } from './db/migrate.ts';
import { sql } from 'kysely';
import { check, fine, type Readiness } from './lib/readiness.ts';
import { RateLimiter } from './lib/rate-limiter.ts';
import { parseSecretsKey, SecretBox } from './lib/secrets.ts';
import { Throttle } from './lib/throttle.ts';
import { VERSION } from './lib/version.ts';
import { noTelemetry, type Telemetry } from './lib/telemetry.ts';
import { operationalStats } from './modules/operations/repo.ts';
import type { Prometheus } from './providers/prometheus/metrics.ts';
import { createServices, type Services } from './modules/index.ts';
import type { Mailer } from './modules/mail/mailer.ts';
import { createMailer } from './providers/mail.ts';
import { createProviders } from './providers/registry.ts';
import { endpointConnector } from './providers/openai/connect.ts';
import { createStripeProcessor } from './providers/stripe/processor.ts';
import type { ProviderRegistry } from './modules/generations/provider.ts';

export interface Container {
  config: Config;
  database: Database;
  /** The API's limit per credential (or per address without one). */
  rateLimiter: RateLimiter;
  accountThrottle: Throttle;
  providers: ProviderRegistry;
  services: Services;
  /** Outgoing mail (SMTP_URL, else the log): the mail sender sends the outbox through it. */
  mailer: Mailer;
  /** Where the workers and the front door report what they do: Prometheus with METRICS=on, else nothing. */
  telemetry: Telemetry;
  /** METRICS=on: the registry /metrics renders. */
  metrics: Prometheus | undefined;
  /** What /readyz answers: the database reachable, its migrations the code's, Redis answering. */
  readiness(): Promise<Readiness>;
  /** Flushes captured page views, then closes the limiters and the database. */
  close(): Promise<void>;
}

/** Readiness of one database and limiter, as the server and the worker answer it. */
export async function readinessOf(database: Database, rateLimiter: RateLimiter): Promise<Readiness> {
  const [reachable, migrations, redis] = await Promise.all([
    check(async () => {
      await sql`select 1`.execute(database.db);
      return 'ok';
    }),
    check(async () => {
      const { pending, unknown } = await migrationState(database.db, database.engine);
      if (unknown.length) return `the database is newer than this code (${unknown.join(', ')})`;
      return pending.length ? `migrations not applied: ${pending.join(', ')}` : 'ok';
    }),
    check(() => rateLimiter.ping()),
  ]);
  const checks = { database: reachable, migrations: reachable === 'ok' ? migrations : 'not checked', redis };
  return { ready: fine(checks.database) && fine(checks.migrations) && fine(checks.redis), checks };
}

/** METRICS=on only: prom-client is not even loaded otherwise. */
async function prometheusOf(database: Database): Promise<Prometheus> {
  const { createPrometheus } = await import('./providers/prometheus/metrics.ts');
  const pool = database.pgPool;
  return createPrometheus({
    stats: () => operationalStats(database.db),
    ...(pool
      ? { pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }) }
      : {}),
  });
}

export interface ContainerOptions {
  /** Redis key prefix of the rate limiters; tests give each run its own. */
  rateLimitKeyPrefix?: string;
  logger?: {
    info(obj: object, msg?: string): void;
    warn(obj: object, msg?: string): void;
    error(obj: object, msg?: string): void;
  };
}

export async function openMigratedDatabase(config: Config): Promise<Database> {
  const database = openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    sqliteSynchronous: config.sqliteSynchronous,
  });
  try {
    await migrateToLatest(database.db, database.engine);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

export async function createContainer(config: Config, opts: ContainerOptions = {}): Promise<Container> {
  const database = await openMigratedDatabase(config);
  const prefix = opts.rateLimitKeyPrefix;
  const rateLimiter = new RateLimiter({ ...config.rateLimit, redisUrl: config.redisUrl, keyPrefix: prefix });
  const { sites } = config;
  const formLimiter = new RateLimiter({
    quota: sites.formRateLimit,
    windowSeconds: Math.max(1, Math.round(sites.formRateWindowMs / 1000)),
    redisUrl: config.redisUrl,
    keyPrefix: prefix ? `${prefix}:forms` : 'sw:forms',
  });
  // Attempts on accounts (sign-ins, reset mails, sign-ups), remembered for an hour, shared by
  // every instance; delays grow to at most 15 minutes.
  const accountThrottle = new Throttle({
    windowSeconds: 3_600,
    maxDelaySeconds: 900,
    redisUrl: config.redisUrl,
    keyPrefix: prefix ? `${prefix}:accounts` : 'sw:accounts',
  });
  const mailer = createMailer(
    { smtpUrl: config.accounts.smtpUrl, from: config.accounts.mailFrom },
    opts.logger,
  );
  const providers = createProviders(config);
  const secrets = secretBox(config);
  const services = createServices({
    config,
    database,
    providers,
    connectEndpoint: endpointConnector(config.ai),
    formLimiter,
    accountThrottle,
    mailer,
    processor: createStripeProcessor(config.stripe),
    secrets,
    logger: opts.logger,
    version: VERSION,
  });
  const metrics = config.metrics ? await prometheusOf(database) : undefined;
  return {
    config,
    database,
    rateLimiter,
    accountThrottle,
    providers,
    services,
    mailer,
    telemetry: metrics?.telemetry ?? noTelemetry,
    metrics,
    readiness: () => readinessOf(database, rateLimiter),
    close: async () => {
      // Page views still queued are written before the database closes.
      await services.capture.close();
      await Promise.all([rateLimiter.close(), formLimiter.close(), accountThrottle.close()]);
      await database.close();
    },
  };
}

/** The embedded default's key file. */
const keyFile = (config: Config) => join(config.dataDir, 'secrets.key');

/** The fingerprint of the secrets key this installation has, without making one (a restore asks). */
export function secretsKeyFingerprint(config: Config): string | null {
  if (config.secretsKey) return new SecretBox(config.secretsKey).fingerprint();
  if (config.databaseUrl) return null;
  const file = keyFile(config);
  const key = existsSync(file) ? parseSecretsKey(readFileSync(file, 'utf8')) : undefined;
  return key ? new SecretBox(key).fingerprint() : null;
}

/**
 * The box sealing organizations' secrets: SECRETS_KEY, else (embedded default only) a key made
 * once in DATA_DIR/secrets.key, readable by the server's user alone. With a shared database and
 * no SECRETS_KEY there is none: instances would each make a different key, and a key beside the
 * database in a backup would protect nothing.
 */
export function secretBox(config: Config): SecretBox | undefined {
  if (config.secretsKey) return new SecretBox(config.secretsKey);
  if (config.databaseUrl) return undefined;
  const file = keyFile(config);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process (the CLI, a second start) made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = parseSecretsKey(readFileSync(file, 'utf8'));
  if (!key)
    throw new Error(
      `${file} does not hold a secrets key (32 bytes as base64): restore it from a backup, or remove it if no organization has connected an AI model yet`,
    );
  return new SecretBox(key);
}
