// Templates snapshot a project's files; projects made from a template start with a copy; the
// zip export follows the client's plan.
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject, createTemplate } from '../../helpers/fixtures.ts';
import { tinyPng } from '../../helpers/images.ts';

const DOT = await tinyPng();

const api = useTestApi();
const file = async (projectId: string, path: string) =>
  (await api.get(`/api/v1/projects/${projectId}/files/${path}`)).body.file;

async function sourceProject() {
  const client = await createClient(api);
  const project = await createProject(api, { client_email: client.email, name: 'Source site' });
  await api.put(`/api/v1/projects/${project.id}/files/index.html`, { content: '<h1>v1</h1>' });
  await api.put(`/api/v1/projects/${project.id}/files/img/dot.png`, {
    content: DOT.toString('base64'),
    encoding: 'base64',
  });
  return { client, project };
}

describe('templates with files', () => {
  it('snapshots the source project, copies into new projects, and keeps both sides independent', async () => {
    const { client, project } = await sourceProject();
    const template = await createTemplate(api, { name: 'Starter', source_project_id: project.id });
    const listed = await api.get(`/api/v1/templates/${template.id}/files`);
    expect(listed.body.files.map((f: any) => f.path)).toEqual(['img/dot.png', 'index.html']);

    // Later edits to the source do not reach the template...
    await api.put(`/api/v1/projects/${project.id}/files/index.html`, { content: '<h1>v2</h1>' });
    const copy = await createProject(api, {
      client_email: client.email,
      name: 'From template',
      template_id: template.id,
    });
    expect(copy.template).toBe('Starter');
    expect((await file(copy.id, 'index.html')).content).toBe('<h1>v1</h1>');
    expect(Buffer.from((await file(copy.id, 'img/dot.png')).content, 'base64')).toEqual(DOT);

    // ...and edits to the copy reach neither the template nor the source.
    await api.put(`/api/v1/projects/${copy.id}/files/index.html`, { content: '<h1>mine</h1>' });
    const again = await createProject(api, {
      client_email: client.email,
      name: 'Second copy',
      template_id: template.id,
    });
    expect((await file(again.id, 'index.html')).content).toBe('<h1>v1</h1>');
    expect((await file(project.id, 'index.html')).content).toBe('<h1>v2</h1>');

    // Deleting the template or the source leaves the copies intact.
    expect((await api.delete(`/api/v1/templates/${template.id}`)).status).toBe(200);
    expect((await api.delete(`/api/v1/projects/${project.id}`)).status).toBe(200);
    expect((await file(copy.id, 'index.html')).content).toBe('<h1>mine</h1>');
    expect((await api.get(`/api/v1/projects/${copy.id}`)).body.project.template).toBe('Starter');
  });

  it('makes a template without files when it has no source, and hides other organizations’ templates', async () => {
    const template = await createTemplate(api, { name: 'Empty' });
    expect((await api.get(`/api/v1/templates/${template.id}/files`)).body).toEqual({ files: [] });
    const other = await api.newOrg('Other');
    expect((await api.get(`/api/v1/templates/${template.id}/files`, { key: other.key })).status).toBe(404);
  });
});

describe('GET /projects/{id}/export', () => {
  it('zips every file byte for byte for a client without a plan', async () => {
    const { project } = await sourceProject();
    const res = await api.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${project.id}/export`,
      headers: { authorization: `Bearer ${api.key}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${project.subdomain}.zip"`);
    const entries = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(entries).sort()).toEqual(['img/dot.png', 'index.html']);
    expect(Buffer.from(entries['index.html']!).toString()).toBe('<h1>v1</h1>');
    expect(Buffer.from(entries['img/dot.png']!)).toEqual(DOT);
  });

  it('follows can_export_code of the client’s plan', async () => {
    const basic = (await api.post('/api/v1/plans', { name: 'Basic', price: 5 })).body.plan;
    const pro = (await api.post('/api/v1/plans', { name: 'Pro', price: 50, can_export_code: true })).body
      .plan;
    const client = await createClient(api, { plan_id: basic.id });
    const project = await createProject(api, { client_email: client.email, name: 'Locked' });
    const refused = await api.get(`/api/v1/projects/${project.id}/export`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain("plan 'Basic'");
    await api.patch(`/api/v1/clients/${client.id}`, { plan_id: pro.id });
    expect((await api.get(`/api/v1/projects/${project.id}/export`)).status).toBe(200);
  });
});
