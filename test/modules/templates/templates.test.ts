import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import {
  createClient,
  createProject,
  createTemplate,
  OTHER_UUID,
  TEMPLATE_FIELDS,
  tick,
} from '../../helpers/fixtures.ts';

const api = useTestApi();

const sourceOf = async (id: string) =>
  (
    await api.ctx.database.db
      .selectFrom('templates')
      .select('source_project_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).source_project_id;

describe('POST /templates', () => {
  it('creates a template with the spec defaults', async () => {
    const res = await api.post('/api/v1/templates', { name: '  Landing page ' });
    expect(res.status).toBe(201);
    const { template } = res.body;
    expect(Object.keys(template).sort()).toEqual(TEMPLATE_FIELDS);
    expect(template).toMatchObject({
      org_id: api.org.id,
      name: 'Landing page',
      description: null,
      category: 'general',
      thumbnail_url: null,
      is_public: false,
      is_featured: false,
    });
    expect((await api.get(`/api/v1/templates/${template.id}`)).body).toEqual({ template });
  });

  it('takes description, category, is_public and remembers source_project_id', async () => {
    const client = await createClient(api);
    const project = await createProject(api, { client_email: client.email, name: 'Source' });
    const template = await createTemplate(api, {
      name: 'Shop',
      description: 'A shop',
      category: 'ecommerce',
      is_public: true,
      source_project_id: project.id,
    });
    expect(template).toMatchObject({
      name: 'Shop',
      description: 'A shop',
      category: 'ecommerce',
      is_public: true,
      is_featured: false,
    });
    expect(await sourceOf(template.id)).toBe(project.id);
  });

  it("answers 404 for a source_project_id that is missing or another organization's", async () => {
    const other = await api.newOrg('Other');
    const theirClient = await createClient(api, {}, other.key);
    const theirs = await createProject(api, { client_email: theirClient.email, name: 'Theirs' }, other.key);
    for (const id of [theirs.id, OTHER_UUID]) {
      const res = await api.post('/api/v1/templates', { name: 'Copy', source_project_id: id });
      expect(res.status).toBe(404);
      expect(res.body.error).toContain('source_project_id');
    }
    expect((await api.get('/api/v1/templates')).body.templates).toEqual([]);
  });

  it.each([
    [{}, "'name' is required"],
    [{ name: '' }, "'name'"],
    [{ name: ' ' }, "'name' must not be blank"],
    [{ name: 'x'.repeat(201) }, "'name'"],
    [{ name: 'x', category: '' }, "'category'"],
    [{ name: 'x', category: '  ' }, "'category' must not be blank"],
    [{ name: 'x', is_public: 'yes' }, "'is_public'"],
    [{ name: 'x', source_project_id: 'abc' }, "'source_project_id' must be a valid uuid"],
    [{ name: 'x', is_featured: true }, "unknown field 'is_featured'"],
    [{ name: 'x', thumbnail_url: 'https://img.example/x.png' }, "unknown field 'thumbnail_url'"],
  ])('refuses %j with 400', async (body, message) => {
    const res = await api.post('/api/v1/templates', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect((await api.get('/api/v1/templates')).body.templates).toEqual([]);
  });
});

describe('template list, update and delete', () => {
  it('lists the organization templates newest first', async () => {
    const a = await createTemplate(api, { name: 'A' });
    const b = await createTemplate(api, { name: 'B' });
    const c = await createTemplate(api, { name: 'C' });
    const other = await api.newOrg('Other');
    await createTemplate(api, { name: 'Theirs' }, other.key);
    expect((await api.get('/api/v1/templates')).body).toEqual({ templates: [c, b, a], total: 3 });
  });

  it('changes only the fields present', async () => {
    const template = await createTemplate(api, { name: 'Base', description: 'Desc', category: 'blog' });
    await tick();
    const res = await api.patch(`/api/v1/templates/${template.id}`, {
      thumbnail_url: 'https://img.example.com/t.png',
      is_featured: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.template).toEqual({
      ...template,
      thumbnail_url: 'https://img.example.com/t.png',
      is_featured: true,
    });
    const more = await api.patch(`/api/v1/templates/${template.id}`, {
      name: 'Renamed',
      description: null,
      category: 'news',
      is_public: true,
      thumbnail_url: null,
    });
    expect(more.body.template).toEqual({
      ...template,
      name: 'Renamed',
      description: null,
      category: 'news',
      is_public: true,
      is_featured: true,
    });
    expect((await api.get(`/api/v1/templates/${template.id}`)).body).toEqual(more.body);
    expect((await api.patch(`/api/v1/templates/${template.id}`, {})).body).toEqual(more.body);
  });

  it.each([
    [{ thumbnail_url: 'not a url' }, "'thumbnail_url'"],
    [{ thumbnail_url: 'javascript:alert(1)' }, "'thumbnail_url'"],
    [{ thumbnail_url: 'ftp://img.example.com/t.png' }, "'thumbnail_url'"],
    [{ thumbnail_url: 'https://' }, "'thumbnail_url'"],
    [{ thumbnail_url: 'https:///t.png' }, "'thumbnail_url'"],
    [{ name: null }, "'name'"],
    [{ category: null }, "'category'"],
    [{ is_featured: 'true' }, "'is_featured'"],
    [{ source_project_id: OTHER_UUID }, "unknown field 'source_project_id'"],
  ])('refuses an update %j with 400 and changes nothing', async (body, message) => {
    const template = await createTemplate(api);
    const res = await api.patch(`/api/v1/templates/${template.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect((await api.get(`/api/v1/templates/${template.id}`)).body.template).toEqual(template);
  });

  it('checks the values before looking the template up (400 before 404)', async () => {
    const res = await api.patch(`/api/v1/templates/${OTHER_UUID}`, { category: ' ' });
    expect([res.status, res.body.error]).toEqual([400, "field 'category' must not be blank"]);
  });

  it('deletes; projects made from it are unaffected and it can no longer be used', async () => {
    const client = await createClient(api);
    const template = await createTemplate(api, { name: 'Portfolio' });
    const project = await createProject(api, {
      client_email: client.email,
      name: 'Made from it',
      template_id: template.id,
    });
    const res = await api.delete(`/api/v1/templates/${template.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: template.id });
    expect((await api.get(`/api/v1/templates/${template.id}`)).status).toBe(404);
    expect((await api.patch(`/api/v1/templates/${template.id}`, { name: 'x' })).status).toBe(404);
    expect((await api.delete(`/api/v1/templates/${template.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/projects/${project.id}`)).body.project).toEqual(project);
    expect(project.template).toBe('Portfolio');
    const again = await api.post('/api/v1/projects', {
      client_email: client.email,
      name: 'Too late',
      template_id: template.id,
    });
    expect(again.status).toBe(404);
  });
});

describe('template access', () => {
  it('answers 400 naming templateId for a malformed id, 404 for an unknown one', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const bad = await api.request(method, '/api/v1/templates/123', body);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('templateId');
      expect((await api.request(method, `/api/v1/templates/${OTHER_UUID}`, body)).status).toBe(404);
    }
  });

  it("never shows, changes or deletes another organization's template", async () => {
    const other = await api.newOrg('Other');
    const theirs = await createTemplate(api, { name: 'Theirs' }, other.key);
    expect((await api.get(`/api/v1/templates/${theirs.id}`)).status).toBe(404);
    expect((await api.patch(`/api/v1/templates/${theirs.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await api.delete(`/api/v1/templates/${theirs.id}`)).status).toBe(404);
    expect((await api.get('/api/v1/templates')).body.templates).toEqual([]);
    expect((await api.get(`/api/v1/templates/${theirs.id}`, { key: other.key })).body.template).toEqual(
      theirs,
    );
  });

  it('needs write to change and read to look', async () => {
    const template = await createTemplate(api);
    const ro = { key: api.readKey };
    expect((await api.post('/api/v1/templates', { name: 'x' }, ro)).status).toBe(403);
    expect((await api.patch(`/api/v1/templates/${template.id}`, { name: 'x' }, ro)).status).toBe(403);
    expect((await api.delete(`/api/v1/templates/${template.id}`, ro)).status).toBe(403);
    expect((await api.get('/api/v1/templates', ro)).body.templates).toEqual([template]);
    expect((await api.get('/api/v1/templates', { key: api.writeKey })).status).toBe(403);
    expect((await api.get(`/api/v1/templates/${template.id}`, { key: null })).status).toBe(401);
  });
});
