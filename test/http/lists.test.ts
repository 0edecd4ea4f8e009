// Every list of the API: one bound and one message for `limit` and `offset` (checked as written,
// before coercion), and the clients, templates, plans and webhooks lists, which answer every
// record without `limit` (streamed) and one page with it, both with `total`.
import { describe, expect, it } from 'vitest';
import { useTestApi, type TestApi } from '../helpers/app.ts';
import { onPostgres } from '../helpers/database.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { MAX_OFFSET, pagingMessage } from '../../src/modules/common/paging.ts';
import { clientList, insertClients, type NewClientRow } from '../../src/modules/clients/repo.ts';
import { templateList } from '../../src/modules/templates/repo.ts';
import { planList } from '../../src/modules/plans/repo.ts';
import { webhookList } from '../../src/modules/webhooks/repo.ts';
import { newId } from '../../src/lib/ids.ts';

const api = useTestApi();
const engine = onPostgres ? 'PostgreSQL' : 'SQLite';

/** Every list route of the API, with the records it needs to exist. */
async function listRoutes(t: TestApi): Promise<string[]> {
  const client = await createClient(t);
  const project = await createProject(t, { client_email: client.email, name: 'Site' });
  const webhook = (
    await t.post('/api/v1/webhooks', { url: 'https://hooks.example.com/in', events: ['client.created'] })
  ).body.webhook;
  return [
    '/api/v1/projects',
    '/api/v1/clients',
    '/api/v1/templates',
    '/api/v1/plans',
    '/api/v1/webhooks',
    `/api/v1/webhooks/${webhook.id}/deliveries`,
    `/api/v1/projects/${project.id}/generations`,
    `/api/v1/projects/${project.id}/submissions`,
  ];
}

const BAD_OFFSETS = [
  '1e23',
  'Infinity',
  '-0',
  '1.5',
  '0x10',
  '',
  '-1',
  String(MAX_OFFSET + 1),
  '99999999999',
  ' 5',
  '+5',
  '1e3',
  'NaN',
  'ten',
];
const BAD_LIMITS = ['0', '101', '1e2', '0x10', '', '-0', '1.5', 'Infinity', '-5', '10.0'];

describe(`paging parameters on every list (${engine})`, () => {
  it('refuses every malformed or unbounded offset and limit with one message naming the parameter', async () => {
    const routes = await listRoutes(api);
    const cases: [string, string][] = [
      ...BAD_OFFSETS.map((v): [string, string] => [`offset=${encodeURIComponent(v)}`, 'offset']),
      ...BAD_LIMITS.map((v): [string, string] => [`limit=${encodeURIComponent(v)}`, 'limit']),
      ['offset=1&offset=2', 'offset'],
      ['limit=5&limit=6', 'limit'],
    ];
    for (const route of routes) {
      for (const [query, name] of cases) {
        const res = await api.get(`${route}?${query}`);
        expect({ route, query, status: res.status, body: res.body }).toEqual({
          route,
          query,
          status: 400,
          body: { error: pagingMessage(name as 'limit') },
        });
      }
    }
  });

  it('takes the bounds themselves on every list', async () => {
    const routes = await listRoutes(api);
    for (const route of routes) {
      for (const query of [
        `offset=${MAX_OFFSET}&limit=100`,
        'offset=0&limit=1',
        `offset=${MAX_OFFSET}`,
        'limit=007',
      ]) {
        const res = await api.get(`${route}?${query}`);
        expect({ route, query, status: res.status }).toEqual({ route, query, status: 200 });
      }
      const past = await api.get(`${route}?offset=${MAX_OFFSET}&limit=100`);
      const key = Object.keys(past.body).find((k) => Array.isArray(past.body[k]))!;
      expect(past.body[key]).toEqual([]);
      expect(past.body.total).toBeGreaterThanOrEqual(0);
    }
  });

  it('documents the same optional limit and offset on every list, and total on the whole lists', async () => {
    const doc = (await api.get('/api/v1/docs', { key: null })).body;
    const lists = [
      '/clients',
      '/templates',
      '/plans',
      '/webhooks',
      '/projects',
      '/webhooks/{webhookId}/deliveries',
      '/projects/{projectId}/generations',
      '/projects/{projectId}/submissions',
    ];
    for (const path of lists) {
      const op = doc.paths[`/api/v1${path}`].get;
      const params = Object.fromEntries(
        op.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p]),
      );
      expect({ path, limit: params.limit?.required, offset: params.offset?.required }).toEqual({
        path,
        limit: false,
        offset: false,
      });
      expect(params.limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
      expect(params.offset.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: MAX_OFFSET });
      const ok = op.responses['200'].content['application/json'].schema;
      expect(Object.keys(ok.properties)).toContain('total');
    }
    for (const path of ['/clients', '/templates', '/plans', '/webhooks']) {
      const op = doc.paths[`/api/v1${path}`].get;
      expect(op.parameters.find((p: any) => p.name === 'limit').schema.default).toBeUndefined();
      expect(op.description).toContain('every record');
      expect(op.responses['200'].content['application/json'].schema.required).toEqual([
        path.slice(1),
        'total',
      ]);
    }
  });

  it('still refuses an unknown query parameter on the whole lists', async () => {
    for (const list of ['clients', 'templates', 'plans', 'webhooks']) {
      const res = await api.get(`/api/v1/${list}?limt=5`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "unknown query parameter 'limt'" });
    }
  });
});

/** Creates `n` records of a whole list through the API (with `key`'s organization), in list order. */
async function make(list: string, n: number, key = api.key): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const body =
      list === 'webhooks'
        ? { url: `https://hooks.example.com/${i}`, events: ['client.created'] }
        : list === 'plans'
          ? { name: `Plan ${i}`, price: 10 }
          : list === 'clients'
            ? { email: `list${i}-${Math.random()}@example.com` }
            : { name: `Template ${i}` };
    const res = await api.post(`/api/v1/${list}`, body, { key });
    expect(res.status).toBe(201);
    ids.push(res.body[list.slice(0, -1)].id);
  }
  // Plans list by sort_order (all 0 here), then creation; the others newest first.
  return list === 'plans' ? ids : ids.reverse();
}

describe.each(['clients', 'templates', 'plans', 'webhooks'])(`GET /%s (${engine})`, (list) => {
  const ids = (body: any): string[] => body[list].map((r: { id: string }) => r.id);

  it('answers every record without limit, one page with it, and total either way', async () => {
    const expected = await make(list, 5);
    await make(list, 2, (await api.newOrg('Other')).key);

    const whole = await api.get(`/api/v1/${list}`);
    expect(whole.status).toBe(200);
    expect(Object.keys(whole.body)).toEqual([list, 'total']);
    expect(ids(whole.body)).toEqual(expected);
    expect(whole.body.total).toBe(5);

    const pages = [
      await api.get(`/api/v1/${list}?limit=2`),
      await api.get(`/api/v1/${list}?limit=2&offset=2`),
      await api.get(`/api/v1/${list}?limit=2&offset=4`),
    ];
    expect(pages.map((p) => p.body.total)).toEqual([5, 5, 5]);
    expect(pages.flatMap((p) => ids(p.body))).toEqual(expected);
    const past = await api.get(`/api/v1/${list}?limit=2&offset=9`);
    expect(past.body).toEqual({ [list]: [], total: 5 });

    // offset without limit: the rest of the list; past the end: nothing, and still the total.
    const rest = await api.get(`/api/v1/${list}?offset=3`);
    expect(rest.body).toEqual({ [list]: whole.body[list].slice(3), total: 5 });
    expect((await api.get(`/api/v1/${list}?offset=50`)).body).toEqual({ [list]: [], total: 5 });

    // The streamed body is byte for byte the body the schema's serializer makes in one piece.
    const paged = await api.get(`/api/v1/${list}?limit=100`);
    expect(whole.text).toBe(paged.text);
    expect(whole.headers['content-type']).toBe(paged.headers['content-type']);
  });

  it('answers an empty list as {"<list>":[],"total":0}', async () => {
    const res = await api.get(`/api/v1/${list}`);
    expect(res.text).toBe(`{"${list}":[],"total":0}`);
    expect((await api.get(`/api/v1/${list}?limit=10`)).text).toBe(`{"${list}":[],"total":0}`);
  });

  it('answers HEAD without a body', async () => {
    await make(list, 1);
    const res = await api.app.inject({
      method: 'HEAD',
      url: `/api/v1/${list}`,
      headers: { authorization: `Bearer ${api.key}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });
});

describe(`GET /clients across many pages (${engine})`, () => {
  it('walks 1,234 clients, many sharing a timestamp, exactly once each in list order', async () => {
    const rows: NewClientRow[] = [];
    const base = Date.parse('2024-01-01T00:00:00.000Z');
    for (let i = 0; i < 1234; i++) {
      // Runs of seven clients share a created_at: the order and the keyset rest on the id then.
      const at = new Date(base + Math.floor(i / 7) * 1000).toISOString();
      rows.push({
        id: newId(),
        org_id: api.org.id,
        user_id: newId(),
        email: `bulk${i}@example.com`,
        email_lower: `bulk${i}@example.com`,
        name: null,
        company: null,
        status: 'invited',
        plan_id: null,
        payment_status: 'none',
        created_at: at,
        updated_at: at,
      });
    }
    await api.ctx.database.db.transaction().execute((trx) => insertClients(trx, rows));
    const expected = rows
      .map((r) => ({ id: r.id, at: r.created_at }))
      .sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1))
      .map((r) => r.id);

    const whole = await api.get('/api/v1/clients');
    expect(whole.body.total).toBe(1234);
    expect(whole.body.clients.map((c: { id: string }) => c.id)).toEqual(expected);

    const rest = await api.get('/api/v1/clients?offset=600');
    expect(rest.body.total).toBe(1234);
    expect(rest.body.clients.map((c: { id: string }) => c.id)).toEqual(expected.slice(600));

    const page = await api.get('/api/v1/clients?limit=100&offset=1200');
    expect(page.body).toEqual({ clients: whole.body.clients.slice(1200), total: 1234 });
  });
});

describe(`keyset pages of every whole list (${engine})`, () => {
  it('walks each list two rows a page in exactly the order of its one-piece answer, from any offset', async () => {
    for (let i = 0; i < 7; i++) {
      // Plans: sort_order ties (3, 1, 3, 1, ...) so the walk's key needs all three columns.
      const plan = (await api.post('/api/v1/plans', { name: `Plan ${i}`, price: 1 })).body.plan;
      expect((await api.patch(`/api/v1/plans/${plan.id}`, { sort_order: i % 2 ? 1 : 3 })).status).toBe(200);
    }
    await make('clients', 7);
    await make('templates', 7);
    await make('webhooks', 7);
    const { database } = api.ctx;
    const lists = {
      clients: clientList(database),
      templates: templateList(database),
      plans: planList(database),
      webhooks: webhookList(database),
    };
    for (const [name, list] of Object.entries(lists)) {
      const whole = (await api.get(`/api/v1/${name}?limit=100`)).body[name].map((r: { id: string }) => r.id);
      expect({ name, n: whole.length }).toEqual({ name, n: 7 });
      for (const offset of [0, 1, 6, 7]) {
        const walk = list.streamAll(api.org.id, offset, 2);
        const seen: string[] = [];
        for await (const rows of walk.pages) {
          expect(rows.length).toBeGreaterThan(0);
          seen.push(...rows.map((r) => r.id as string));
        }
        expect({ name, offset, seen }).toEqual({ name, offset, seen: whole.slice(offset) });
        expect(await walk.total()).toBe(7);
      }
    }
  });
});
