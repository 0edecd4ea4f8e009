// The projects, analytics, templates and plans pages through the same services as the API, on
// both engines: pages render with data, forms change it, other organizations' ids are 404 pages,
// roles hold, typed text is escaped, and the submissions CSV is safe to open in a spreadsheet.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { PageSession } from '../helpers/page-session.ts';
import { csvCell } from '../../src/ui/csv.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const api = useTestApi();
const XSS = '<script>window.__xss=1</script>';

async function setup() {
  const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
  const client = (await api.post('/api/v1/clients', { email: `c${Date.now()}@example.com`, name: 'Jane' }))
    .body.client;
  return { owner, client };
}

describe('project pages', () => {
  it('create, edit, publish, archive, delete through the forms', async () => {
    const { owner, client } = await setup();
    expect((await owner.get(`/projects/new?client=${encodeURIComponent(client.email)}`)).status).toBe(200);
    const created = await owner.post('/projects', {
      client_email: client.email,
      name: `Bakery ${XSS}`,
      description: 'Fresh bread',
    });
    expect(created.status).toBe(303);
    const id = created.location!.split('/').pop()!;
    const page = await owner.get(`/projects/${id}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(XSS);
    expect(page.body).toContain('Bakery &lt;script&gt;');
    expect(
      (await owner.post(`/projects/${id}`, { name: 'Bakery', description: '', tags: 'bread, cakes' })).status,
    ).toBe(303);
    expect((await api.get(`/api/v1/projects/${id}`)).body.project).toMatchObject({
      name: 'Bakery',
      description: null,
      tags: ['bread', 'cakes'],
    });
    await api.put(`/api/v1/projects/${id}/files/index.html`, { content: '<h1>Bakery</h1>' });
    const published = await owner.post(`/projects/${id}/publish`);
    expect(published.status).toBe(303);
    expect((await api.get(`/api/v1/projects/${id}`)).body.project.published_url).toBeTruthy();
    expect((await owner.post(`/projects/${id}/archive`)).status).toBe(303);
    expect((await api.get(`/api/v1/projects/${id}`)).body.project.status).toBe('archived');
    const list = await owner.get('/projects?status=archived');
    expect(list.body).toContain('/projects/' + id);
    expect((await owner.get(`/projects/${id}/delete`)).body).toContain('cannot be undone');
    expect((await owner.post(`/projects/${id}/delete`)).status).toBe(303);
    expect((await api.get(`/api/v1/projects/${id}`)).status).toBe(404);
  });

  it('another organization’s project, template and plan are 404 pages', async () => {
    const { owner } = await setup();
    const other = await api.newOrg('Other');
    const theirClient = await api.ctx.services.clients.create(systemPrincipal(other.org.id), {
      email: 'x@example.com',
    });
    const theirs = await api.ctx.services.projects.create(systemPrincipal(other.org.id), {
      client_email: theirClient.email,
      name: 'Theirs',
    });
    const template = await api.ctx.services.templates.create(systemPrincipal(other.org.id), { name: 'T' });
    const plan = await api.ctx.services.plans.create(systemPrincipal(other.org.id), { name: 'P', price: 1 });
    for (const url of [
      `/projects/${theirs.id}`,
      `/projects/${theirs.id}/submissions`,
      `/projects/${theirs.id}/submissions.csv`,
      `/analytics?project=${theirs.id}`,
      `/templates/${template.id}`,
      `/plans/${plan.id}`,
      '/projects/not-a-uuid',
    ]) {
      expect((await owner.get(url)).status, url).toBe(404);
    }
    expect((await owner.post(`/projects/${theirs.id}/delete`)).status).toBe(404);
    expect((await api.ctx.services.projects.get(systemPrincipal(other.org.id), theirs.id)).name).toBe(
      'Theirs',
    );
  });

  it('submissions: listed, deleted, exported as CSV with spreadsheet formulas neutralised', async () => {
    const { owner, client } = await setup();
    const project = (await api.post('/api/v1/projects', { client_email: client.email, name: 'Forms' })).body
      .project;
    await api.ctx.services.forms.submit(
      { orgId: api.org.id, projectId: project.id } as any,
      'contact',
      [
        ['name', '=HYPERLINK("http://evil")'],
        ['message', 'Hello, "world"\nbye'],
      ],
      '/contact',
    );
    const page = await owner.get(`/projects/${project.id}/submissions`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('contact');
    const csv = await owner.get(`/projects/${project.id}/submissions.csv`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment/);
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv.body).toContain('"Hello, ""world""\nbye"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('plain')).toBe('plain');
    const id = (await api.get(`/api/v1/projects/${project.id}/submissions`)).body.submissions[0].id;
    expect((await owner.post(`/projects/${project.id}/submissions/${id}/delete`)).status).toBe(303);
    expect((await api.get(`/api/v1/projects/${project.id}/submissions`)).body.total).toBe(0);
  });

  it('analytics, templates and plans render; members may view plans but not change them', async () => {
    const { owner, client } = await setup();
    const project = (await api.post('/api/v1/projects', { client_email: client.email, name: 'Analytics' }))
      .body.project;
    for (const url of [
      '/analytics',
      '/analytics?days=7',
      `/analytics?project=${project.id}&days=365`,
      '/templates',
      '/plans',
      '/projects',
    ]) {
      const res = await owner.get(url);
      expect(res.status, url).toBe(200);
    }
    expect((await owner.get('/analytics')).body).toContain('<svg');
    const template = await owner.post('/templates', {
      name: 'Starter',
      source_project_id: project.id,
      category: 'bakery',
      is_public: 'on',
    });
    expect(template.status).toBe(303);
    const plan = await owner.post('/plans', {
      name: 'Pro',
      price: '29',
      interval: 'monthly',
      max_sites: '5',
      max_ai_messages_daily: '100',
      can_export_code: 'on',
    });
    expect(plan.status).toBe(303);
    const planId = plan.location!.split('/').pop()!;
    expect((await owner.post(`/plans/${planId}/default`)).status).toBe(303);
    expect((await api.get(`/api/v1/plans/${planId}`)).body.plan).toMatchObject({
      is_default: true,
      max_sites: 5,
      can_export_code: true,
      price: 29,
    });
    const member = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    expect((await member.get('/plans')).status).toBe(200);
    expect((await member.post('/plans', { name: 'Sneaky', price: '1' })).status).toBe(403);
    expect((await member.post(`/plans/${planId}`, { name: 'Renamed', price: '1' })).status).toBe(403);
    expect((await api.get(`/api/v1/plans/${planId}`)).body.plan.name).toBe('Pro');
  });
});
