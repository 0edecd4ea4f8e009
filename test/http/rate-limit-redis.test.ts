// Two API instances sharing one Redis must share one quota per key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';

const REDIS_URL = process.env.REDIS_URL;

describe.skipIf(!REDIS_URL)('rate limit on Redis (REDIS_URL)', () => {
  const prefix = `sw:test:rl:${process.pid}:${Date.now()}`;
  let db: TestDatabase;
  const runtimes: Container[] = [];
  const apps: FastifyInstance[] = [];
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      const runtime = await createContainer(
        testConfig(db, { REDIS_URL: REDIS_URL!, RATE_LIMIT_QUOTA: '4' }),
        { rateLimitKeyPrefix: prefix },
      );
      await runtime.rateLimiter.ready();
      runtimes.push(runtime);
      apps.push(await buildApp(runtime));
    }
    const org = await runtimes[0]!.services.orgs.createOrg(`Redis ${prefix}`);
    key = (await runtimes[0]!.services.orgs.createKey(org.id, ['read'], null)).key;
  });

  afterAll(async () => {
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    for (const app of apps) await app.close();
    for (const runtime of runtimes) await runtime.close();
    await db?.drop();
  });

  it('shares one quota across both instances', async () => {
    const results = [];
    for (let i = 0; i < 5; i++) {
      const res = await apps[i % 2]!.inject({
        method: 'GET',
        url: '/api/v1/clients',
        headers: { authorization: `Bearer ${key}` },
      });
      results.push([res.statusCode, res.headers['x-ratelimit-remaining']]);
    }
    expect(results).toEqual([
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
    ]);
    const stored = new Redis(REDIS_URL!);
    expect((await stored.keys(`${prefix}*`)).length).toBeGreaterThan(0);
    await stored.quit();
  });
});
