import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import {
  createClient,
  createProject,
  createTemplate,
  OTHER_UUID,
  PROJECT_FIELDS,
} from '../../helpers/fixtures.ts';

const api = useTestApi();

describe('POST /projects', () => {
  it('creates an active, empty project for the client with the spec fields and a builder URL', async () => {
    const client = await createClient(api, { email: 'owner@example.com' });
    const res = await api.post('/api/v1/projects', {
      client_email: 'owner@example.com',
      name: 'Bakery Site',
      description: 'Fresh bread',
    });
    expect(res.status).toBe(201);
    const { project, builder_url } = res.body;
    expect(Object.keys(project).sort()).toEqual(PROJECT_FIELDS);
    expect(builder_url).toBe(`http://sitewright.test/app/projects/${project.id}`);
    const { user_id } = await api.ctx.database.db
      .selectFrom('clients')
      .select('user_id')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(project).toMatchObject({
      user_id,
      org_id: api.org.id,
      org_client_id: client.id,
      name: 'Bakery Site',
      description: 'Fresh bread',
      status: 'active',
      template: null,
      tags: [],
      starred: false,
      is_public: false,
      subdomain: 'bakery-site',
      custom_domain: null,
      custom_domain_status: null,
      published_url: null,
      last_published_at: null,
      preview_image_url: null,
      last_opened_at: null,
    });
    expect(project.user_id).not.toBe(client.id);
    expect(project.updated_at).toBe(project.created_at);
    expect(Date.now() - Date.parse(project.created_at)).toBeLessThan(60_000);
    const got = await api.get(`/api/v1/projects/${project.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ project });
  });

  it('matches client_email case-insensitively, trims the name and defaults description to null', async () => {
    const client = await createClient(api, { email: 'Mixed.Case@Example.com' });
    const project = await createProject(api, { client_email: 'mixed.case@EXAMPLE.COM', name: '  Spaced  ' });
    expect(project.org_client_id).toBe(client.id);
    expect(project.name).toBe('Spaced');
    expect(project.description).toBeNull();
  });

  it('starts from a template of the organization: template name and template_id are kept', async () => {
    const client = await createClient(api);
    const template = await createTemplate(api, { name: 'Restaurant' });
    const project = await createProject(api, {
      client_email: client.email,
      name: 'Trattoria',
      template_id: template.id,
    });
    expect(project.template).toBe('Restaurant');
    const row = await api.ctx.database.db
      .selectFrom('projects')
      .select('template_id')
      .where('id', '=', project.id)
      .executeTakeFirstOrThrow();
    expect(row.template_id).toBe(template.id);
  });

  it('answers 404 for a client_email that is not a client of the organization, and creates nothing', async () => {
    const other = await api.newOrg('Other');
    const foreign = await createClient(api, { email: 'foreign@example.com' }, other.key);
    for (const email of ['nobody@example.com', foreign.email]) {
      const res = await api.post('/api/v1/projects', { client_email: email, name: 'Nope' });
      expect(res.status).toBe(404);
      expect(res.body.error).toContain('client_email');
    }
    expect((await api.get('/api/v1/projects')).body.total).toBe(0);
    expect((await api.get('/api/v1/projects', { key: other.key })).body.total).toBe(0);
  });

  it("answers 404 for a template_id that is missing or another organization's, and creates nothing", async () => {
    const client = await createClient(api);
    const other = await api.newOrg('Other');
    const foreign = await createTemplate(api, {}, other.key);
    for (const id of [foreign.id, OTHER_UUID]) {
      const res = await api.post('/api/v1/projects', {
        client_email: client.email,
        name: 'Nope',
        template_id: id,
      });
      expect(res.status).toBe(404);
      expect(res.body.error).toContain('template_id');
    }
    expect((await api.get('/api/v1/projects')).body.total).toBe(0);
  });

  it.each([
    [{ name: 'x' }, "'client_email' is required"],
    [{ client_email: 'a@example.com' }, "'name' is required"],
    [{ client_email: 'not-an-email', name: 'x' }, "'client_email' must be a valid email"],
    [{ client_email: 'a@example.com', name: '' }, "'name'"],
    [{ client_email: 'a@example.com', name: '   ' }, "'name' must not be blank"],
    [{ client_email: 'a@example.com', name: 'x'.repeat(201) }, "'name'"],
    [{ client_email: 'a@example.com', name: 42 }, "'name'"],
    [{ client_email: 'a@example.com', name: 'x', description: 7 }, "'description'"],
    [{ client_email: 'a@example.com', name: 'x', template_id: 'nope' }, "'template_id' must be a valid uuid"],
    [{ client_email: 'a@example.com', name: 'x', status: 'archived' }, "unknown field 'status'"],
    [{ client_email: 'a@example.com', name: 'x', subdomain: 'mine' }, "unknown field 'subdomain'"],
  ])('refuses %j with 400', async (body, message) => {
    await createClient(api, { email: 'a@example.com' });
    const res = await api.post('/api/v1/projects', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect((await api.get('/api/v1/projects')).body.total).toBe(0);
  });

  it('refuses a body without JSON content type (415) and malformed JSON (400)', async () => {
    const noType = await api.post('/api/v1/projects', undefined, {
      payload: '{"name":"x"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(noType.status).toBe(415);
    const broken = await api.post('/api/v1/projects', undefined, {
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
  });
});

describe('project subdomains', () => {
  it('derives a DNS label from the name and keeps equal names apart', async () => {
    const client = await createClient(api);
    const make = (name: string) => createProject(api, { client_email: client.email, name });
    const first = await make('Café Zürich!');
    const second = await make('café   zürich');
    expect(first.subdomain).toBe('cafe-zurich');
    expect(second.subdomain).toMatch(/^cafe-zurich-[a-z0-9]{6}$/);
    expect((await make('Кафе')).subdomain).toBe('site');
    expect((await make('日本')).subdomain).toMatch(/^site-[a-z0-9]{6}$/);
    expect((await make('www')).subdomain).toMatch(/^www-[a-z0-9]{6}$/);
    const long = await make('A very long project name that goes on and on beyond forty characters');
    expect(long.subdomain).toBe('a-very-long-project-name-that-goes-on-an');
    const longAgain = await make('A very long project name that goes on and on beyond forty characters');
    expect(longAgain.subdomain).toMatch(/^a-very-long-project-name-that-goe-[a-z0-9]{6}$/);
    expect(longAgain.subdomain).toHaveLength(40);
  });

  it('is unique under concurrent creates and across organizations', async () => {
    // Different clients, so no client-row lock serializes the creates: they race for the same
    // free label and the unique index decides.
    const clients = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createClient(api)));
    const results = await Promise.all(
      clients.map((c) => api.post('/api/v1/projects', { client_email: c.email, name: 'Race Name' })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const ours = results.map((r) => r.body.project.subdomain as string);
    expect(ours).toContain('race-name');
    const other = await api.newOrg('Other');
    const otherClient = await createClient(api, {}, other.key);
    const theirs = await createProject(
      api,
      { client_email: otherClient.email, name: 'Race Name' },
      other.key,
    );
    const all = new Set([...ours, theirs.subdomain]);
    expect(all.size).toBe(7);
    for (const s of all) expect(s).toMatch(/^race-name(-[a-z0-9]{6})?$/);
  });

  it('keeps the subdomain when the project is renamed', async () => {
    const client = await createClient(api);
    const project = await createProject(api, { client_email: client.email, name: 'Old Name' });
    const renamed = await api.patch(`/api/v1/projects/${project.id}`, { name: 'New Name' });
    expect(renamed.body.project.subdomain).toBe('old-name');
  });
});
