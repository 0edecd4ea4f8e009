// Repeated reads answered in front of Fastify (src/http/cached-reads.ts), over real HTTP: the same
// bytes and headers as the API's own path, every rule of the guard still applied, and anything
// it does not answer passed on untouched. On PostgreSQL nothing is cached, so every request
// takes the API's own path and the same answers must come out.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/http/app.ts';
import { createCachedReads, type CachedReads } from '../src/http/cached-reads.ts';
import { takeDecidedRate } from '../src/http/rate-limit.ts';
import { ReadCache } from '../src/http/read-cache.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers/database.ts';
import { testConfig } from './helpers/app.ts';
import { logCollector } from './helpers/log-lines.ts';

const QUOTA = 4;
let db: TestDatabase;
let runtime: Runtime;
let app: FastifyInstance;
let address: string;
const { lines, stream } = logCollector();

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await createRuntime(testConfig(db, { RATE_LIMIT_QUOTA: String(QUOTA), API_DEPRECATION: '@1893456000', API_SUNSET: 'Sun, 01 Jan 2034 00:00:00 GMT' }), { rateLimitKeyPrefix: `sw:test:${process.pid}:cached-reads` });
  app = await buildApp(runtime.ctx, { level: 'info', stream });
  address = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await runtime?.close();
  await db?.drop();
});

let orgs = 0;
async function newOrg() {
  const org = await runtime.ctx.orgs.createOrg(`Cached reads ${++orgs}`);
  const key = async (permissions: ('read' | 'write')[]) => (await runtime.ctx.orgs.createKey(org.id, permissions, null)).key;
  return { org, key };
}

async function createClient(key: string, email: string) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/clients', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: { email } });
  expect(res.statusCode).toBe(201);
  return res.json().client as { id: string };
}

/** A request to the app, or to `base`. */
async function get(url: string, key: string | null, headers: Record<string, string> = {}, method = 'GET', base = address) {
  const res = await fetch(base + url, { method, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
  return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
}

const completed = (reqId: string) => lines.find((l) => l.reqId === reqId && l.msg === 'request completed');

describe('repeated reads answered in front of Fastify', () => {
  it('sends the bytes and headers the API sent, counts each read against the rate limit, and logs it', async () => {
    const { key } = await newOrg();
    const rw = await key(['read', 'write']);
    const client = await createClient(rw, 'front@example.com');
    const url = `/api/v1/clients/${client.id}`;

    const first = await get(url, rw, { 'x-request-id': 'read-1' });
    const second = await get(url, rw, { 'x-request-id': 'read-2' });
    const third = await get(url, rw);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(second.text).toBe(first.text);
    expect(JSON.parse(third.text).client.id).toBe(client.id);
    expect(Object.keys(second.headers).sort()).toEqual(Object.keys(first.headers).sort());
    for (const name of ['content-type', 'content-length', 'ratelimit-policy', 'x-ratelimit-limit', 'deprecation', 'sunset']) {
      expect(second.headers[name], name).toBe(first.headers[name]);
    }
    expect(second.headers.deprecation).toBe('@1893456000');
    expect([first.headers['x-request-id'], second.headers['x-request-id']]).toEqual(['read-1', 'read-2']);
    expect(third.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The key made the POST too: QUOTA - 2, - 3, - 4.
    expect([first, second, third].map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0']);
    expect(second.headers.ratelimit).toMatch(/^"v1";r=1;t=\d+$/);

    // Over the quota, the guard answers: 429 with Retry-After, counted once.
    const refused = await get(url, rw, { 'x-request-id': 'read-4' });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).error).toMatch(/^Rate limit exceeded: 4 requests per 60 s/);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect([refused.headers['x-ratelimit-remaining'], refused.headers['x-request-id']]).toEqual(['0', 'read-4']);

    // The same two lines as any request; a read answered here says so.
    expect(lines.filter((l) => l.reqId === 'read-2').map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(lines.find((l) => l.reqId === 'read-2')?.req).toMatchObject({ method: 'GET', url, remoteAddress: '127.0.0.1' });
    expect(completed('read-2')).toMatchObject({ res: { statusCode: 200 } });
    expect(completed('read-1')?.readCache).toBeUndefined();
    expect(completed('read-2')?.readCache).toBe(onPostgres ? undefined : 'hit');
    expect(completed('read-4')).toMatchObject({ res: { statusCode: 429 } });
  });

  it('applies every rule of the guard: permission, organization, revocation, the latest data', async () => {
    const a = await newOrg();
    const rw = await a.key(['read', 'write']);
    const writeOnly = await a.key(['write']);
    const client = await createClient(rw, 'rules@example.com');
    const url = `/api/v1/clients/${client.id}`;
    expect((await get(url, rw)).status).toBe(200);
    expect((await get(url, rw)).status).toBe(200);

    expect((await get(url, writeOnly)).status).toBe(403);
    expect((await get(url, writeOnly)).status).toBe(403);
    expect((await get(url, null)).status).toBe(401);
    const b = await newOrg();
    expect((await get(url, await b.key(['read']))).status).toBe(404);

    const reader = await a.key(['read']);
    expect(JSON.parse((await get(url, reader)).text).client.name).toBeNull();
    const patched = await app.inject({ method: 'PATCH', url, headers: { authorization: `Bearer ${rw}`, 'content-type': 'application/json' }, payload: { name: 'Renamed' } });
    expect(patched.statusCode).toBe(200);
    expect(JSON.parse((await get(url, reader)).text).client.name).toBe('Renamed');
    const head = await get(url, reader, {}, 'HEAD');
    expect([head.status, head.text]).toEqual([200, '']);

    const readerId = (await runtime.ctx.orgs.listKeys(a.org.id)).find((k) => k.permissions.join() === 'read')!.id;
    await runtime.ctx.orgs.revokeKey(readerId);
    expect((await get(url, reader)).status).toBe(401);
  });
});

describe('createCachedReads', () => {
  const cache = new ReadCache();

  /** A real server with the cached reads in front of a stand-in for Fastify that answers 299 and shows any rate decision handed on to it. */
  async function serve(cachedReads: CachedReads, prepare?: (res: ServerResponse) => void) {
    const server = createServer((req, res) => {
      prepare?.(res);
      const fallBack = () => res.writeHead(299, { 'content-type': 'application/json' }).end(JSON.stringify({ passedOn: true, rate: takeDecidedRate(req) ?? null }));
      const answered = cachedReads.handle(req, res);
      if (answered === false) fallBack();
      else void answered.then((done) => done || fallBack());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  /** Keys the server remembers (each looked up twice: the first look-up records its use, a write), and a cached answer of `url` for their organization. */
  async function remembered(url: string, body: string) {
    const { org, key } = await newOrg();
    const keys = { reader: await key(['read']), writer: await key(['write']) };
    const { ctx } = runtime;
    for (const k of [keys.reader, keys.writer, keys.reader, keys.writer]) {
      await ctx.orgs.authenticate(k, ctx.database.dataVersion?.());
      await new Promise((resolve) => setImmediate(resolve));
    }
    const version = ctx.database.dataVersion?.();
    if (version !== undefined) {
      // As the guard does: ask (a miss, which moves the cache to this version), then keep the answer.
      const slot = ReadCache.key(org.id, url);
      expect(cache.get(slot, version)).toBeUndefined();
      cache.set(slot, body, version);
    }
    return keys;
  }

  it('answers only a GET it holds for a remembered key with the read permission, and nothing once stopped', async () => {
    const cachedReads = createCachedReads(runtime.ctx, cache, () => app.log);
    const { base, close } = await serve(cachedReads);
    try {
      const { reader, writer } = await remembered('/api/v1/clients?limit=5', '{"clients":[]}');
      const hit = await get('/api/v1/clients?limit=5', reader, {}, 'GET', base);
      if (onPostgres) {
        expect(hit.status).toBe(299);
      } else {
        expect([hit.status, hit.text]).toEqual([200, '{"clients":[]}']);
        expect(hit.headers['x-ratelimit-limit']).toBe(String(QUOTA));
      }
      for (const [url, k, method] of [
        ['/api/v1/clients?limit=5', writer, 'GET'], // no read permission
        ['/api/v1/clients?limit=5', null, 'GET'], // no key
        ['/api/v1/clients?limit=5', 'wk_unknown', 'GET'], // a key it does not remember
        ['/api/v1/clients?limit=5', reader, 'HEAD'],
        ['/api/v1/clients?limit=6', reader, 'GET'], // not in the cache
        ['/healthz', reader, 'GET'],
      ] as const) {
        expect((await get(url, k, {}, method, base)).status, `${method} ${url}`).toBe(299);
      }

      if (!onPostgres) {
        // The rest of the quota, then a refusal: passed on with the decision, not answered here.
        for (let i = 1; i < QUOTA; i++) expect((await get('/api/v1/clients?limit=5', reader, {}, 'GET', base)).status).toBe(200);
        const refused = await get('/api/v1/clients?limit=5', reader, {}, 'GET', base);
        expect(refused.status).toBe(299);
        expect(JSON.parse(refused.text).rate).toMatchObject({ allowed: false, remaining: 0 });
      }

      cachedReads.stop();
      expect((await get('/api/v1/clients?limit=5', reader, {}, 'GET', base)).status).toBe(299);
    } finally {
      await close();
    }
  });

  it('passes the request on, and logs why, when writing the answer fails before anything is sent', async () => {
    let failures = 1;
    // The first 200's writeHead throws (a header value Node refuses, say); the stand-in's 299 does not.
    const failOnce = (res: ServerResponse) => {
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      (res as unknown as { writeHead: typeof writeHead }).writeHead = (...args) => {
        if (args[0] === 200 && failures-- > 0) throw new Error('headers refused');
        return writeHead(...args);
      };
    };
    const { base, close } = await serve(createCachedReads(runtime.ctx, cache, () => app.log), failOnce);
    try {
      const { reader } = await remembered('/api/v1/plans', '{"plans":[]}');
      const res = await get('/api/v1/plans', reader, {}, 'GET', base);
      expect(res.status).toBe(299);
      expect(failures).toBe(onPostgres ? 1 : 0);
      if (!onPostgres) {
        expect(lines.find((l) => l.msg === 'answering a cached read failed')).toMatchObject({ url: '/api/v1/plans', err: { message: 'headers refused' } });
      }
    } finally {
      await close();
    }
  });
});
