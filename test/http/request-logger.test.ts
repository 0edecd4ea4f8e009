// Request logs: every line a request writes carries its request id, although the child logger
// behind request.log is only built when a line is actually written (src/http/request-logger.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { lazyRequestLogger } from '../../src/http/request-logger.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { logCollector } from '../helpers/log-lines.ts';

describe('request logger', () => {
  it('writes nothing below the level, and every line it writes carries the bindings', () => {
    const { lines, stream } = logCollector();
    const parent = pino({ level: 'warn' }, stream) as unknown as FastifyBaseLogger;
    const log = lazyRequestLogger.call({} as never, parent, { reqId: 'r-1' }, {}, {} as never);
    log.info('not written');
    log.debug({ a: 1 }, 'not written either');
    log.warn({ code: 7 }, 'written');
    log.child({ part: 'inner' }).error('from a child');
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ['written', 'r-1'],
      ['from a child', 'r-1'],
    ]);
    expect(lines[0]!.code).toBe(7);
    expect(lines[1]!.part).toBe('inner');
    expect(log.level).toBe('warn');
  });

  it('a route-level log level gets a real child with that level', () => {
    const { lines, stream } = logCollector();
    const parent = pino({ level: 'warn' }, stream) as unknown as FastifyBaseLogger;
    const log = lazyRequestLogger.call(
      {} as never,
      parent,
      { reqId: 'r-2' },
      { level: 'debug' },
      {} as never,
    );
    log.debug('debug line');
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([['debug line', 'r-2']]);
  });

  it('without a logger, hands out the silent one', async () => {
    const app = Fastify({ logger: false, childLoggerFactory: lazyRequestLogger });
    app.get('/', async (request) => {
      request.log.info('nowhere');
      return { ok: true };
    });
    expect((await app.inject({ url: '/' })).json()).toEqual({ ok: true });
    await app.close();
  });
});

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
