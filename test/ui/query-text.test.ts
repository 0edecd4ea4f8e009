// Free text in a page's query string (a search, a filter, a file path, an OAuth request) is checked
// like form text, on both engines: a NUL character is a 400 page naming the parameter (on
// PostgreSQL it reached the database, which cannot hold one, as a 500), and a parameter sent
// twice is read as its first value rather than as a list.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { PageSession, visibleText } from '../helpers/page-session.ts';

const api = useTestApi();

async function ownerWithProject() {
  const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
  const client = (await api.post('/api/v1/clients', { email: `c${Date.now()}@example.com`, name: 'Jane' }))
    .body.client;
  const project = (await api.post('/api/v1/projects', { client_email: client.email, name: 'Bakery' })).body
    .project;
  return { owner, project };
}

describe('free text in the query string of a page', () => {
  it('is a 400 page naming the parameter when it holds a NUL', async () => {
    const { owner, project } = await ownerWithProject();
    const cases: [string, string][] = [
      ['/projects?q=%00', 'q'],
      ['/projects?q=bread%00', 'q'],
      ['/clients?q=%00', 'q'],
      ['/clients?status=active&q=a%00b', 'q'],
      [`/projects/${project.id}/submissions?form=%00`, 'form'],
      [`/app/projects/${project.id}/file?path=index.html%00`, 'path'],
      [`/app/projects/${project.id}?file=%00`, 'file'],
      ['/oauth/authorize?client_id=%00&redirect_uri=x', 'client_id'],
      ['/build?prompt=a%00&org=x', 'prompt'],
      ['/projects?q=ok&q=%00', 'q'],
    ];
    for (const [url, name] of cases) {
      const page = await owner.get(url);
      expect(page.status, url).toBe(400);
      expect(visibleText(page.body), url).toContain(`${name}: must not contain a NUL character`);
    }
  });

  it('reads a parameter sent twice as its first value', async () => {
    const { owner } = await ownerWithProject();
    const page = await owner.get('/projects?q=Bak&q=zzz');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Bakery');
    expect((await owner.get('/clients?q=Jane&q=x')).status).toBe(200);
  });

  it('still serves the pages without one', async () => {
    const { owner } = await ownerWithProject();
    const page = await owner.get('/projects?q=Bak');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Bakery');
    expect((await owner.get('/clients?q=Jane')).status).toBe(200);
  });
});
