import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject, createTemplate } from '../../helpers/fixtures.ts';

const api = useTestApi();

async function seed(names: string[]) {
  const client = await createClient(api);
  const created = [];
  for (const name of names) created.push(await createProject(api, { client_email: client.email, name }));
  return { client, ids: created.map((p) => p.id as string) };
}

const names = (res: { body: { projects: { name: string }[] } }) => res.body.projects.map((p) => p.name);

describe('GET /projects pagination', () => {
  it('lists newest first with the total of all matches', async () => {
    const { ids } = await seed(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
    const newestFirst = [...ids].reverse();
    const all = await api.get('/api/v1/projects');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(7);
    expect(all.body.projects.map((p: any) => p.id)).toEqual(newestFirst);

    const pages = [];
    for (let offset = 0; offset < 7; offset += 3) {
      const page = await api.get(`/api/v1/projects?limit=3&offset=${offset}`);
      expect(page.body.total).toBe(7);
      pages.push(...page.body.projects.map((p: any) => p.id));
    }
    expect(pages).toEqual(newestFirst);
    expect((await api.get('/api/v1/projects?limit=3&offset=6')).body.projects).toHaveLength(1);
    // A full last page and a page past the end still report the total.
    expect((await api.get('/api/v1/projects?limit=7')).body).toMatchObject({ total: 7 });
    expect((await api.get('/api/v1/projects?limit=1&offset=6')).body.total).toBe(7);
    expect((await api.get('/api/v1/projects?offset=7')).body).toEqual({ projects: [], total: 7 });
    expect((await api.get('/api/v1/projects?offset=100')).body).toEqual({ projects: [], total: 7 });
  });

  it('defaults to 50 per page and allows 100', async () => {
    const client = await createClient(api);
    const now = new Date().toISOString();
    const rows = Array.from({ length: 120 }, (_, i) => ({
      id: crypto.randomUUID(),
      org_id: api.org.id,
      user_id: client.id,
      org_client_id: client.id,
      name: `bulk ${i}`,
      name_lower: `bulk ${i}`,
      status: 'active',
      tags: '[]',
      starred: false,
      is_public: false,
      created_at: now,
      updated_at: now,
    }));
    await api.ctx.database.db.insertInto('projects').values(rows).execute();
    const first = await api.get('/api/v1/projects');
    expect(first.body.projects).toHaveLength(50);
    expect(first.body.total).toBe(120);
    expect((await api.get('/api/v1/projects?limit=100')).body.projects).toHaveLength(100);
    expect((await api.get('/api/v1/projects?limit=100&offset=100')).body.projects).toHaveLength(20);
  });

  it.each([
    ['limit=0', "'limit'"],
    ['limit=101', "query parameter 'limit' must be a whole number from 1 to 100, written in decimal digits"],
    ['limit=-1', "'limit'"],
    ['limit=abc', "'limit'"],
    ['limit=1.5', "'limit'"],
    [
      'offset=-1',
      "query parameter 'offset' must be a whole number from 0 to 2147483647, written in decimal digits",
    ],
    ['offset=x', "'offset'"],
    ['client_id=123', "'client_id' must be a valid uuid"],
    ['status=deleted', "'status' must be one of: active, archived"],
    [`q=${'x'.repeat(201)}`, "'q'"],
    ['page=2', "unknown query parameter 'page'"],
  ])('refuses %s with 400', async (query, message) => {
    const res = await api.get(`/api/v1/projects?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });
});

describe('GET /projects filters', () => {
  it('q is a case-insensitive substring with % and _ taken literally', async () => {
    await seed([
      '100% Organic',
      'my_site',
      'mysite',
      'MixedCase Bakery',
      'Crème Brûlée Café',
      'ÄPFEL und Birnen',
      'back\\slash',
      'Percent Free',
    ]);
    const search = async (q: string) =>
      names(await api.get(`/api/v1/projects?q=${encodeURIComponent(q)}`)).sort();
    expect(await search('%')).toEqual(['100% Organic']);
    expect(await search('0%')).toEqual(['100% Organic']);
    expect(await search('_')).toEqual(['my_site']);
    expect(await search('y_s')).toEqual(['my_site']);
    expect(await search('ysi')).toEqual(['mysite']);
    expect(await search('\\')).toEqual(['back\\slash']);
    expect(await search('mixedCASE')).toEqual(['MixedCase Bakery']);
    expect(await search('BAKERY')).toEqual(['MixedCase Bakery']);
    expect(await search('BRÛLÉE')).toEqual(['Crème Brûlée Café']);
    expect(await search('äpfel')).toEqual(['ÄPFEL und Birnen']);
    expect(await search('brulee')).toEqual([]);
    expect(await search('SITE')).toEqual(['my_site', 'mysite']);
    expect(await search('')).toHaveLength(8);
    const res = await api.get('/api/v1/projects?q=site&limit=1');
    expect(res.body.total).toBe(2);
    expect(res.body.projects).toHaveLength(1);
  });

  it('filters by client_id and status, together with q, and counts the matches', async () => {
    const a = await seed(['Alpha shop', 'Alpha blog', 'Alpha wiki']);
    const b = await seed(['Beta shop']);
    await api.patch(`/api/v1/projects/${a.ids[1]}`, { status: 'archived' });
    const get = (query: string) => api.get(`/api/v1/projects?${query}`);
    expect((await get(`client_id=${a.client.id}`)).body.total).toBe(3);
    expect(names(await get(`client_id=${b.client.id}`))).toEqual(['Beta shop']);
    expect(names(await get('status=archived'))).toEqual(['Alpha blog']);
    expect((await get('status=active')).body.total).toBe(3);
    expect(names(await get('status=active&q=shop'))).toEqual(['Beta shop', 'Alpha shop']);
    expect(names(await get(`client_id=${a.client.id}&status=active&q=SHOP`))).toEqual(['Alpha shop']);
    const page = await get(`client_id=${a.client.id}&status=active&limit=1&offset=1`);
    expect(page.body).toMatchObject({ total: 2, projects: [{ name: 'Alpha shop' }] });
    expect((await get(`client_id=${crypto.randomUUID()}`)).body).toEqual({ projects: [], total: 0 });
  });

  it("never lists another organization's projects, whatever the filter", async () => {
    await seed(['Ours']);
    const other = await api.newOrg('Other');
    const theirClient = await createClient(api, {}, other.key);
    await createProject(api, { client_email: theirClient.email, name: 'Ours too?' }, other.key);
    expect(names(await api.get('/api/v1/projects?q=ours'))).toEqual(['Ours']);
    expect((await api.get('/api/v1/projects?status=active')).body.total).toBe(1);
    expect((await api.get(`/api/v1/projects?client_id=${theirClient.id}`)).body.total).toBe(0);
  });
});

describe('GET /projects rows', () => {
  it('render every field exactly as GET /projects/{id} does', async () => {
    const client = await createClient(api);
    const template = await createTemplate(api, { name: 'Tmpl "quoted"' });
    const tricky = 'Quote " backslash \\ newline \n tab \t bell \u0007 emoji 🎉 ünïcödé </script>';
    const project = await createProject(api, {
      client_email: client.email,
      name: tricky,
      description: tricky,
      template_id: template.id,
    });
    await api.patch(`/api/v1/projects/${project.id}`, { status: 'archived', tags: ['a "b"', 'ç', '\\'] });
    // Fields no API route writes yet (publishing, domains, the builder) go in directly.
    await api.ctx.database.db
      .updateTable('projects')
      .set({
        starred: true,
        is_public: true,
        custom_domain: 'www.example.com',
        custom_domain_status: 'verified',
        published_url: 'https://x.example.com',
        last_published_at: '2026-01-02T03:04:05.678Z',
        preview_image_url: 'https://img.example.com/p.png',
        last_opened_at: '2026-02-03T04:05:06.007Z',
      })
      .where('id', '=', project.id)
      .execute();
    const plain = await createProject(api, { client_email: client.email, name: 'Plain' });
    const list = await api.get('/api/v1/projects');
    const got = await Promise.all(
      [plain.id, project.id].map(async (id) => (await api.get(`/api/v1/projects/${id}`)).body.project),
    );
    expect(list.body.projects).toEqual(got);
    expect(got[1]).toMatchObject({
      name: tricky,
      starred: true,
      is_public: true,
      last_published_at: '2026-01-02T03:04:05.678Z',
      tags: ['a "b"', 'ç', '\\'],
    });
    expect(got[0]).toEqual(plain);
  });
});

describe('GET /projects in the OpenAPI document', () => {
  it('documents optional limit and offset with their defaults, and the 403 of the plan limit', async () => {
    const doc = (await api.get('/api/v1/docs', { key: null })).body;
    const params = Object.fromEntries(
      doc.paths['/api/v1/projects'].get.parameters.map((p: any) => [p.name, p]),
    );
    expect(Object.keys(params).sort()).toEqual(['client_id', 'limit', 'offset', 'q', 'status']);
    expect(params.limit).toMatchObject({ in: 'query', schema: { default: 50, minimum: 1, maximum: 100 } });
    expect(params.limit.required).not.toBe(true);
    expect(params.offset).toMatchObject({ schema: { default: 0, minimum: 0 } });
    expect(params.offset.required).not.toBe(true);
    expect(Object.keys(doc.paths['/api/v1/projects'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '403', '404', '415']),
    );
  });
});
