// Builds everything once: the database (migrated), the rate limiters, the AI providers and every
// service of the core. The server (main.ts), the CLI, the worker process and the tests all start
// from here, so each runs the same objects wired the same way.
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { RateLimiter } from './lib/rate-limiter.ts';
import { Throttle } from './lib/throttle.ts';
import { createServices, type Services } from './modules/index.ts';
import { createMailer } from './modules/mail/mailer.ts';
import { createProviders } from './modules/generations/registry.ts';
import type { ProviderRegistry } from './modules/generations/provider.ts';

export interface Container {
  config: Config;
  database: Database;
  /** The API's limit per credential (or per address without one). */
  rateLimiter: RateLimiter;
  accountThrottle: Throttle;
  providers: ProviderRegistry;
  services: Services;
  /** Flushes captured page views, then closes the limiters and the database. */
  close(): Promise<void>;
}

export interface ContainerOptions {
  /** Redis key prefix of the rate limiters; tests give each run its own. */
  rateLimitKeyPrefix?: string;
  logger?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

export async function openMigratedDatabase(config: Config): Promise<Database> {
  const database = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, sqliteSynchronous: config.sqliteSynchronous });
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
  const accountThrottle = new Throttle({ windowSeconds: 3_600, maxDelaySeconds: 900, redisUrl: config.redisUrl, keyPrefix: prefix ? `${prefix}:accounts` : 'sw:accounts' });
  const mailer = createMailer({ smtpUrl: config.accounts.smtpUrl, from: config.accounts.mailFrom }, opts.logger);
  const providers = createProviders(config);
  const services = createServices({ config, database, providers, formLimiter, accountThrottle, mailer, logger: opts.logger });
  return {
    config,
    database,
    rateLimiter,
    accountThrottle,
    providers,
    services,
    close: async () => {
      // Page views still queued are written before the database closes.
      await services.capture.close();
      await Promise.all([rateLimiter.close(), formLimiter.close(), accountThrottle.close()]);
      await database.close();
    },
  };
}
