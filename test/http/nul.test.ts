// A NUL character is refused in every text input, on both engines, with a 400 naming the field
// and nothing written: PostgreSQL cannot store one (it answered 500), SQLite stored it. File
// content, which is bytes, is the exception.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createPlan, createProject, createTemplate } from '../helpers/fixtures.ts';

const api = useTestApi();
const NUL = 'a\u0000b';

function expectNulRefusal(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({ error: expect.stringContaining(`'${field}' must not contain a NUL character`) });
}

describe('NUL characters in text inputs', () => {
  it('are refused in every body field, naming it, and nothing is written', async () => {
    const client = await createClient(api);
    const project = await createProject(api, { client_email: client.email, name: 'Site' });
    const template = await createTemplate(api);
    const plan = await createPlan(api, 3);
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/api/v1/clients', { email: 'nul@example.com', name: NUL }, 'name'],
      ['POST', '/api/v1/clients', { email: 'nul@example.com', company: NUL }, 'company'],
      ['PATCH', `/api/v1/clients/${client.id}`, { name: NUL }, 'name'],
      ['POST', '/api/v1/projects', { client_email: client.email, name: NUL }, 'name'],
      [
        'POST',
        '/api/v1/projects',
        { client_email: client.email, name: 'ok', description: NUL },
        'description',
      ],
      ['PATCH', `/api/v1/projects/${project.id}`, { tags: ['fine', NUL] }, 'tags[1]'],
      ['PATCH', `/api/v1/projects/${project.id}`, { description: NUL }, 'description'],
      ['POST', '/api/v1/templates', { name: NUL }, 'name'],
      ['POST', '/api/v1/templates', { name: 'ok', category: NUL }, 'category'],
      ['PATCH', `/api/v1/templates/${template.id}`, { description: NUL }, 'description'],
      ['POST', '/api/v1/plans', { name: NUL, price: 1, max_sites: 1 }, 'name'],
      ['PATCH', `/api/v1/plans/${plan.id}`, { description: NUL }, 'description'],
      ['POST', `/api/v1/projects/${project.id}/generate`, { prompt: `Bakery ${NUL}` }, 'prompt'],
    ];
    for (const [method, url, body, field] of cases) {
      const res = await api.request(method, url, body);
      expectNulRefusal(res, field);
    }
    expect((await api.get('/api/v1/clients')).body.clients).toHaveLength(1);
    expect((await api.get(`/api/v1/projects/${project.id}`)).body.project).toMatchObject({
      description: null,
      tags: [],
    });
  });

  it('are refused in query parameters (q, form)', async () => {
    const client = await createClient(api);
    const project = await createProject(api, { client_email: client.email, name: 'Site' });
    expectNulRefusal(await api.get('/api/v1/projects?q=a%00b'), 'q');
    expectNulRefusal(await api.get(`/api/v1/projects/${project.id}/submissions?form=a%00b`), 'form');
  });

  it('are kept in file content, which is bytes', async () => {
    const client = await createClient(api);
    const project = await createProject(api, { client_email: client.email, name: 'Site' });
    const put = await api.put(`/api/v1/projects/${project.id}/files/data.txt`, { content: NUL });
    expect(put.status).toBe(201);
    expect((await api.get(`/api/v1/projects/${project.id}/files/data.txt`)).body.file.content).toBe(NUL);
    const publish = await api.post(`/api/v1/projects/${project.id}/publish`, {
      builtFiles: { 'index.html': `<h1>${NUL}</h1>` },
    });
    expect(publish.status).toBe(200);
  });
});
