// Request logs: every line a request writes carries its request id (Fastify's own child logger).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { buildApp } from '../../src/http/app.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { logCollector } from '../helpers/log-lines.ts';

describe('request logs of the app', () => {
  let db: TestDatabase;
  let runtime: Container;
  const { lines, stream } = logCollector();

  beforeAll(async () => {
    db = await createTestDatabase();
    runtime = await createContainer(testConfig(db));
  });
  afterAll(async () => {
    await runtime?.close();
    await db?.drop();
  });

  it('logs each request at info with the request id it echoes', async () => {
    const app = await buildApp(runtime, { logger: pino({ level: 'info' }, stream) });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/clients',
        headers: { 'x-request-id': 'trace-42' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-request-id']).toBe('trace-42');
      const mine = lines.filter((l) => l.reqId === 'trace-42').map((l) => l.msg);
      expect(mine).toEqual(['incoming request', 'request completed']);
    } finally {
      await app.close();
    }
  });
});
