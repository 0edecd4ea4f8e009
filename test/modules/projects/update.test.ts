import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { recordViews } from '../../../src/modules/analytics/rollups.ts';
import { rawViews } from '../../helpers/page-views.ts';
import { createClient, createProject, createTemplate, OTHER_UUID, tick } from '../../helpers/fixtures.ts';

const api = useTestApi();

async function newProject(name = 'Site One', description: string | null = 'About us') {
  const client = await createClient(api);
  return createProject(api, { client_email: client.email, name, description });
}

describe('PATCH /projects/{id}', () => {
  it('changes only the fields present and moves updated_at', async () => {
    const project = await newProject();
    await tick();
    const res = await api.patch(`/api/v1/projects/${project.id}`, { name: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body.project).toEqual({
      ...project,
      name: 'Renamed',
      updated_at: res.body.project.updated_at,
    });
    expect(Date.parse(res.body.project.updated_at)).toBeGreaterThan(Date.parse(project.updated_at));
    expect(res.body.project.created_at).toBe(project.created_at);
    expect((await api.get(`/api/v1/projects/${project.id}`)).body).toEqual(res.body);
    // The search column follows the name.
    expect((await api.get('/api/v1/projects?q=RENAMED')).body.total).toBe(1);
    expect((await api.get('/api/v1/projects?q=site one')).body.total).toBe(0);
  });

  it('archives and reactivates, clears the description, leaves publish state alone', async () => {
    const project = await newProject();
    const archived = await api.patch(`/api/v1/projects/${project.id}`, {
      status: 'archived',
      description: null,
    });
    expect(archived.body.project).toMatchObject({
      status: 'archived',
      description: null,
      name: 'Site One',
      published_url: null,
      subdomain: project.subdomain,
    });
    const active = await api.patch(`/api/v1/projects/${project.id}`, { status: 'active' });
    expect(active.body.project).toMatchObject({ status: 'active', description: null });
  });

  it('replaces tags: trimmed, without empty ones or duplicates, order kept', async () => {
    const project = await newProject();
    const res = await api.patch(`/api/v1/projects/${project.id}`, {
      tags: [' seo ', 'shop', '', '   ', 'seo', 'Shop', 'shop'],
    });
    expect(res.status).toBe(200);
    expect(res.body.project.tags).toEqual(['seo', 'shop', 'Shop']);
    expect((await api.get(`/api/v1/projects/${project.id}`)).body.project.tags).toEqual([
      'seo',
      'shop',
      'Shop',
    ]);
    const cleared = await api.patch(`/api/v1/projects/${project.id}`, { tags: [] });
    expect(cleared.body.project.tags).toEqual([]);
    const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
    expect((await api.patch(`/api/v1/projects/${project.id}`, { tags: fifty })).body.project.tags).toEqual(
      fifty,
    );
  });

  it('keeps updated_at when nothing changes', async () => {
    const project = await newProject();
    await tick();
    for (const body of [{}, { name: 'Site One', description: 'About us', status: 'active' }]) {
      const res = await api.patch(`/api/v1/projects/${project.id}`, body);
      expect(res.status).toBe(200);
      expect(res.body.project).toEqual(project);
    }
  });

  it.each([
    [{ name: '' }, "'name'"],
    [{ name: '  ' }, "'name' must not be blank"],
    [{ name: null }, "'name'"],
    [{ description: 'x'.repeat(2001) }, "'description'"],
    [{ status: 'deleted' }, "'status' must be one of: active, archived"],
    [{ tags: 'seo' }, "'tags'"],
    [{ tags: [1] }, "'tags[0]'"],
    [{ tags: ['x'.repeat(51)] }, "'tags[0]'"],
    [{ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, "'tags'"],
    [{ subdomain: 'mine' }, "unknown field 'subdomain'"],
    [{ published_url: 'https://x.example' }, "unknown field 'published_url'"],
  ])('refuses %j with 400 and changes nothing', async (body, message) => {
    const project = await newProject();
    const res = await api.patch(`/api/v1/projects/${project.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect((await api.get(`/api/v1/projects/${project.id}`)).body.project).toEqual(project);
  });

  it('checks the values before looking the project up (400 before 404)', async () => {
    const res = await api.patch('/api/v1/projects/01a20225-2fef-73dd-be9d-af188b7b1886', { name: '  ' });
    expect([res.status, res.body.error]).toEqual([400, "field 'name' must not be blank"]);
  });
});

describe('DELETE /projects/{id}', () => {
  it('deletes the project with its page views; templates made from it stay', async () => {
    const project = await newProject();
    const keep = await newProject('Keep Me');
    const template = await createTemplate(api, { source_project_id: project.id });
    const { db } = api.ctx.database;
    const view = (projectId: string) => ({
      org_id: api.org.id,
      project_id: projectId,
      path: '/',
      referrer: null,
      device: 'desktop',
      visitor_hash: 'v',
      viewed_at: new Date().toISOString(),
    });
    await recordViews(api.ctx.database, [view(project.id), view(keep.id)], { keepRaw: true });

    const res = await api.delete(`/api/v1/projects/${project.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: project.id });
    expect((await api.get(`/api/v1/projects/${project.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/projects/${project.id}`)).status).toBe(404);
    expect((await api.patch(`/api/v1/projects/${project.id}`, { name: 'x' })).status).toBe(404);

    const views = await rawViews(db, { orgId: api.org.id });
    expect(views.map((v) => v.project_id)).toEqual([keep.id]);
    expect((await api.get(`/api/v1/templates/${template.id}`)).body.template).toEqual(template);
    const row = await db
      .selectFrom('templates')
      .select('source_project_id')
      .where('id', '=', template.id)
      .executeTakeFirstOrThrow();
    expect(row.source_project_id).toBeNull();
    expect((await api.get('/api/v1/projects')).body).toMatchObject({ total: 1, projects: [{ id: keep.id }] });
  });
});

describe('project access', () => {
  it('answers 400 naming projectId for a malformed id, 404 for an unknown one', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const bad = await api.request(method, '/api/v1/projects/not-a-uuid', body);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('projectId');
      expect((await api.request(method, `/api/v1/projects/${OTHER_UUID}`, body)).status).toBe(404);
    }
  });

  it("never shows, changes or deletes another organization's project", async () => {
    const other = await api.newOrg('Other');
    const theirClient = await createClient(api, {}, other.key);
    const theirs = await createProject(api, { client_email: theirClient.email, name: 'Theirs' }, other.key);
    await newProject();
    expect((await api.get(`/api/v1/projects/${theirs.id}`)).status).toBe(404);
    expect((await api.patch(`/api/v1/projects/${theirs.id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await api.delete(`/api/v1/projects/${theirs.id}`)).status).toBe(404);
    const list = await api.get('/api/v1/projects');
    expect(list.body.total).toBe(1);
    expect(list.body.projects.map((p: any) => p.id)).not.toContain(theirs.id);
    expect((await api.get(`/api/v1/projects?client_id=${theirClient.id}`)).body).toEqual({
      projects: [],
      total: 0,
    });
    expect((await api.get(`/api/v1/projects/${theirs.id}`, { key: other.key })).body.project).toEqual(theirs);
  });

  it('needs write to change and read to look; 401 without a key', async () => {
    const project = await newProject();
    const client = await createClient(api);
    const ro = { key: api.readKey };
    const post = await api.post('/api/v1/projects', { client_email: client.email, name: 'x' }, ro);
    expect(post.status).toBe(403);
    expect(post.body.error).toContain("'write'");
    expect((await api.patch(`/api/v1/projects/${project.id}`, { name: 'x' }, ro)).status).toBe(403);
    expect((await api.delete(`/api/v1/projects/${project.id}`, ro)).status).toBe(403);
    expect((await api.get(`/api/v1/projects/${project.id}`, ro)).status).toBe(200);
    expect((await api.get('/api/v1/projects', { key: api.writeKey })).status).toBe(403);
    expect((await api.get(`/api/v1/projects/${project.id}`, { key: api.writeKey })).status).toBe(403);
    expect((await api.get('/api/v1/projects', { key: null })).status).toBe(401);
    expect((await api.get(`/api/v1/projects/${project.id}`)).body.project).toEqual(project);
    expect((await api.get('/api/v1/projects')).body.total).toBe(1);
  });
});
