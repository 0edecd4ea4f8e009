// The read cache (src/http/read-cache.ts): repeated record reads answered without a query, and
// never a stale or another organization's answer. Runs on both engines; on PostgreSQL nothing is
// cached, and the same answers must come out.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/index.ts';
import { ReadCache } from '../src/http/read-cache.ts';
import { DataVersion } from '../src/db/data-version.ts';
import { useTestApi } from './helpers/app.ts';

const api = useTestApi();

describe('the read cache in the API', () => {
  it('shows a change made through the API on the very next read', async () => {
    const created = (await api.post('/api/v1/clients', { email: 'fresh@example.com', name: 'Before' })).body.client;
    const url = `/api/v1/clients/${created.id}`;
    expect((await api.get(url)).body.client.name).toBe('Before');
    expect((await api.get(url)).body.client.name).toBe('Before');
    expect((await api.get('/api/v1/clients')).body.clients).toHaveLength(1);

    expect((await api.patch(url, { name: 'After' })).status).toBe(200);
    expect((await api.get(url)).body.client.name).toBe('After');
    await api.post('/api/v1/clients', { email: 'second@example.com' });
    expect((await api.get('/api/v1/clients')).body.clients).toHaveLength(2);
  });

  it('shows a change committed by another connection (the CLI, another process) to the next request', async () => {
    const created = (await api.post('/api/v1/clients', { email: 'other@example.com', name: 'Mine' })).body.client;
    // Over real HTTP, as a client after the CLI has exited: a request sent after the commit.
    const address = await api.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const read = async () => {
        const res = await fetch(`${address}/api/v1/clients/${created.id}`, { headers: { authorization: `Bearer ${api.key}` } });
        return ((await res.json()) as { client: { name: string } }).client.name;
      };
      expect(await read()).toBe('Mine');
      expect(await read()).toBe('Mine');

      // A second connection of its own, as the CLI opens.
      const { config } = api.ctx;
      const other = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
      try {
        await other.db.updateTable('clients').set({ name: 'Changed elsewhere' }).where('id', '=', created.id).execute();
      } finally {
        await other.close();
      }
      expect(await read()).toBe('Changed elsewhere');
    } finally {
      await api.app.server.close();
    }
  });

  it("never answers one organization's URL with another's data", async () => {
    await api.post('/api/v1/clients', { email: 'a@example.com' });
    await api.post('/api/v1/projects', { name: 'Only in A', client_email: 'a@example.com' });
    const listA = await api.get('/api/v1/projects?limit=50');
    expect(listA.body.projects.map((p: { name: string }) => p.name)).toEqual(['Only in A']);
    expect((await api.get('/api/v1/projects?limit=50')).body.total).toBe(1);

    const b = await api.newOrg('Other agency');
    const listB = await api.get('/api/v1/projects?limit=50', { key: b.key });
    expect(listB.status).toBe(200);
    expect(listB.body).toEqual({ projects: [], total: 0 });
    const one = await api.get(`/api/v1/projects/${listA.body.projects[0].id}`, { key: b.key });
    expect(one.status).toBe(404);
  });

  it('checks the key, the permission and the rate limit on every read, cached or not', async () => {
    await api.post('/api/v1/clients', { email: 'k@example.com' });
    const first = await api.get('/api/v1/clients');
    const second = await api.get('/api/v1/clients');
    expect(second.body).toEqual(first.body);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);

    expect((await api.get('/api/v1/clients', { key: api.writeKey })).status).toBe(403);
    expect((await api.get('/api/v1/clients', { key: null })).status).toBe(401);
    const rw = (await api.ctx.orgs.listKeys(api.org.id)).find((k) => k.name === 'rw')!;
    await api.ctx.orgs.revokeKey(rw.id);
    expect((await api.get('/api/v1/clients')).status).toBe(401);
  });

  it('answers HEAD without a body and leaves GET whole, in either order', async () => {
    await api.post('/api/v1/clients', { email: 'head@example.com' });
    const head = async () => api.app.inject({ method: 'HEAD', url: '/api/v1/clients', headers: { authorization: `Bearer ${api.key}` } });
    const first = await head();
    expect([first.statusCode, first.body]).toEqual([200, '']);
    const get = await api.get('/api/v1/clients');
    expect(get.body.clients).toHaveLength(1);
    const again = await head();
    expect([again.statusCode, again.body]).toEqual([200, '']);
    expect((await api.get('/api/v1/clients')).text).toBe(get.text);
  });

  it('keeps only successes: a failed read is answered afresh, an empty list fills', async () => {
    expect((await api.get('/api/v1/plans?limit=x')).status).toBe(400);
    expect((await api.get('/api/v1/plans?limit=x')).status).toBe(400);
    expect((await api.get('/api/v1/plans')).body.plans).toEqual([]);
    const plan = (await api.post('/api/v1/plans', { name: 'Basic', price: 10 })).body.plan;
    expect((await api.get('/api/v1/plans')).body.plans.map((p: { id: string }) => p.id)).toEqual([plan.id]);
    expect((await api.get(`/api/v1/plans/${plan.id}`)).body.plan.name).toBe('Basic');
  });
});

describe('DataVersion', () => {
  it('reads the counter once per event-loop turn, and again after a write of this process', async () => {
    let reads = 0;
    let counter = 1;
    const version = new DataVersion(() => {
      reads++;
      return counter;
    });
    expect([version.current(), version.current()]).toEqual([1, 1]);
    expect(reads).toBe(1);
    counter = 2; // another process commits during this turn
    expect(version.current()).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(version.current()).toBe(2);
    expect(reads).toBe(2);
    counter = 3; // this process commits
    version.forget();
    expect(version.current()).toBe(3);
    expect(reads).toBe(3);
  });
});

describe('ReadCache', () => {
  it('keeps a body while the version it was read at is current, and drops all of it when the version moves', () => {
    const cache = new ReadCache();
    expect(cache.get('k', 1)).toBeUndefined();
    cache.set('k', '{"a":1}', 1);
    cache.set('j', '{"b":2}', 1);
    expect(cache.get('k', 1)?.toString()).toBe('{"a":1}');
    expect(cache.get('k', 2)).toBeUndefined();
    expect(cache.get('j', 2)).toBeUndefined();
    // A body read at version 1 after the cache saw version 2 may already be stale: refused.
    cache.set('k', '{"a":1}', 1);
    expect(cache.get('k', 2)).toBeUndefined();
    cache.set('k', '{"a":3}', 2);
    expect(cache.get('k', 2)?.toString()).toBe('{"a":3}');
  });

  it('starts over rather than grow past its memory bound', () => {
    const cache = new ReadCache();
    expect(cache.get('first', 7)).toBeUndefined();
    const big = 'x'.repeat(20 * 1024 * 1024);
    cache.set('first', big, 7);
    expect(cache.get('first', 7)?.toString()).toBe(big);
    cache.set('second', big, 7);
    expect(cache.get('second', 7)?.toString()).toBe(big);
    expect(cache.get('first', 7)).toBeUndefined();
  });

  it('counts the bound in bytes sent, not characters', () => {
    const cache = new ReadCache();
    expect(cache.get('first', 1)).toBeUndefined();
    // 10 million characters, 20 MB in UTF-8: two of them are past the 32 MB bound.
    const wide = 'é'.repeat(10 * 1024 * 1024);
    cache.set('first', wide, 1);
    expect(cache.get('first', 1)?.length).toBe(20 * 1024 * 1024);
    cache.set('second', wide, 1);
    expect(cache.get('second', 1)?.toString()).toBe(wide);
    expect(cache.get('first', 1)).toBeUndefined();
  });
});
