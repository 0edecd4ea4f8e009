// /healthz is liveness (the process answers); /readyz is readiness: 200 only when the database
// answers, its migrations are the code's and Redis answers (when REDIS_URL is set), else 503 with
// a JSON body naming what is not ready. `sitewright worker` answers both on WORKER_HEALTH_PORT.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { BIN, cliEnv, startServer, stopServer } from '../helpers/cli.ts';
import { freePort } from '../helpers/server-process.ts';
import { buildServer } from '../../src/main.ts';
import { readinessOf } from '../../src/container.ts';
import { openDatabase } from '../../src/db/index.ts';
import { knownMigrations, migrateTo, migrateToLatest } from '../../src/db/migrate.ts';
import { RateLimiter } from '../../src/lib/rate-limiter.ts';

const api = useTestApi();
const limiter = () => new RateLimiter({ quota: 10, windowSeconds: 60 });

async function freshDatabase() {
  const db = await createTestDatabase();
  const database = openDatabase({
    dataDir: db.dataDir,
    databaseUrl: db.databaseUrl,
    sqliteSynchronous: 'NORMAL',
  });
  return { db, database };
}

describe('readiness', () => {
  it('answers 200 naming each check when the database, its migrations and Redis answer', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ready');
    expect(body.checks).toMatchObject({ database: 'ok', migrations: 'ok' });
    expect(['ok', 'not used']).toContain(body.checks.redis);
    expect((await api.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
  });

  it('is not ready while migrations are missing, and names them', async () => {
    const { db, database } = await freshDatabase();
    try {
      await migrateTo(database.db, database.engine, '023_embed_sessions');
      const state = await readinessOf(database, limiter());
      expect(state.ready).toBe(false);
      const after = knownMigrations().filter((name) => name > '023_embed_sessions');
      expect(state.checks.migrations).toBe(`migrations not applied: ${after.join(', ')}`);
      await migrateToLatest(database.db, database.engine);
      expect((await readinessOf(database, limiter())).ready).toBe(true);
    } finally {
      await database.close();
      await db.drop();
    }
  });

  it('is not ready when the database is gone or Redis does not answer', async () => {
    const { db, database } = await freshDatabase();
    await migrateToLatest(database.db, database.engine);
    const redis = new RateLimiter({ quota: 10, windowSeconds: 60, redisUrl: 'redis://127.0.0.1:1' });
    try {
      const noRedis = await readinessOf(database, redis);
      expect(noRedis.ready).toBe(false);
      expect(noRedis.checks.database).toBe('ok');
      expect(noRedis.checks.redis).not.toMatch(/^(ok|not used)$/);
    } finally {
      await redis.close();
    }
    await database.close();
    const closed = await readinessOf(database, limiter());
    expect(closed.ready).toBe(false);
    expect(closed.checks.database).not.toBe('ok');
    expect(closed.checks.migrations).toBe('not checked');
    await db.drop();
  });

  it('answers 503 with {"error"} naming what is not ready', async () => {
    const down = {
      ready: false,
      checks: { database: 'ok', migrations: 'ok', redis: 'connect ECONNREFUSED' },
    };
    const app = await buildServer({ ...api.ctx, readiness: async () => down });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      // The names of what fails, never its error (a host, a database message): that is logged.
      expect(res.json()).toEqual({
        error: 'not ready: redis',
        status: 'not ready',
        checks: { database: 'ok', migrations: 'ok', redis: 'failing' },
      });
    } finally {
      await app.close();
    }
  });

  it('sitewright worker answers /healthz and /readyz on WORKER_HEALTH_PORT and stops cleanly', async () => {
    const port = await freePort();
    const { dataDir, databaseUrl } = api.ctx.config;
    const env = cliEnv({ dataDir, databaseUrl, drop: async () => {} }, { WORKER_HEALTH_PORT: String(port) });
    const worker = await startServer(env, port, [process.execPath, BIN, 'worker']);
    try {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { status: string }).status).toBe('ready');
      expect((await fetch(`http://127.0.0.1:${port}/nothing`)).status).toBe(404);
    } finally {
      expect(await stopServer(worker)).toBe(0);
    }
  });
});
