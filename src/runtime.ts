// Builds the collaborators the server, the CLI and the tests share: database (migrated),
// organizations service, rate limiter.
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { AppContext } from './http/context.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { OrgService } from './modules/orgs/service.ts';
import { createProviders } from './sites/generate/registry.ts';
import { PreviewSigner } from './sites/publish/preview.ts';

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

export interface Runtime {
  ctx: AppContext;
  close(): Promise<void>;
}

export async function createRuntime(config: Config, opts: { rateLimitKeyPrefix?: string } = {}): Promise<Runtime> {
  const database = await openMigratedDatabase(config);
  const rateLimiter = new RateLimiter({ ...config.rateLimit, redisUrl: config.redisUrl, keyPrefix: opts.rateLimitKeyPrefix });
  const ctx: AppContext = { config, database, orgs: new OrgService(database), rateLimiter, providers: createProviders(config), preview: new PreviewSigner(database, config.sites.previewSecret) };
  return {
    ctx,
    close: async () => {
      await rateLimiter.close();
      await database.close();
    },
  };
}
