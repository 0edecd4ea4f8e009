// Nothing internal is served: the builtin generator's notes live under `.sitewright/`, which no
// deployment holds and no site or preview serves; its old root `site.json` notes, still in the
// files and deployments of sites made before, are not served either. A site's own site.json is.
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';

const api = useTestApi(
  { SITES_DOMAIN: 'sites.test', GENERATION_POLL_INTERVAL: '50ms' },
  { generationWorker: true },
);
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

const BRIEF = JSON.stringify({
  name: 'Old Bakery',
  kind: 'bakery',
  place: 'Lyon',
  primary: null,
  dark: false,
  headline: null,
  tagline: null,
  sections: ['about'],
});

async function project() {
  const client = await createClient(api);
  const p = await createProject(api, { client_email: client.email, name: 'Internal files' });
  return { id: p.id as string, host: `${p.subdomain}.sites.test` };
}

async function generated(projectId: string, prompt: string) {
  const { id } = (await api.post(`/api/v1/projects/${projectId}/generate`, { prompt })).body.generation;
  for (let i = 0; i < 400; i++) {
    const { generation } = (await api.get(`/api/v1/projects/${projectId}/generations/${id}`)).body;
    if (generation.status === 'succeeded') return generation;
    if (generation.status === 'failed') throw new Error(generation.error);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('generation did not finish');
}

/** Fetches a path under the project's preview link (on the preview origin). */
async function fetchPreview(projectId: string, rest: string) {
  const link = new URL((await api.get(`/api/v1/projects/${projectId}/preview`)).body.preview_url);
  return fetchSite(port, link.host, `${link.pathname}${rest}`);
}

describe('the builtin generator notes', () => {
  it('are kept with the files for follow-up edits, but never published nor served', async () => {
    const p = await project();
    await generated(p.id, "A site for Bella's Bakery in Lyon");
    const notes = (await api.get(`/api/v1/projects/${p.id}/files/.sitewright/builtin-brief.json`)).body.file;
    expect(JSON.parse(notes.content)).toMatchObject({ name: "Bella's Bakery" });
    const published = (await api.post(`/api/v1/projects/${p.id}/publish`)).body;
    const stored = await api.ctx.database.db
      .selectFrom('deployment_files')
      .select('path')
      .where('deployment_id', '=', published.deployId)
      .execute();
    expect(stored.map((f) => f.path).sort()).toEqual([
      '404.html',
      'index.html',
      'robots.txt',
      'sitemap.xml',
      'styles.css',
    ]);

    for (const path of ['/.sitewright/builtin-brief.json', '/site.json', '/.sitewright/', '/.sitewright']) {
      const res = await fetchSite(port, p.host, path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body).not.toContain('Bella\'s Bakery"');
    }
    expect((await fetchPreview(p.id, '.sitewright/builtin-brief.json')).status).toBe(404);
    // The generator still reads them: a follow-up edit works.
    await generated(p.id, 'Rename it to Maison Bella');
    expect((await api.get(`/api/v1/projects/${p.id}/files/index.html`)).body.file.content).toContain(
      'Maison Bella',
    );
  });

  it('are not served from a deployment made before, where they are a root site.json', async () => {
    const p = await project();
    const { deployId } = (
      await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': '<h1>Old</h1>' } })
    ).body;
    const content = Buffer.from(BRIEF);
    const sha256 = createHash('sha256').update(content).digest('hex');
    await api.ctx.database.db
      .insertInto('blobs')
      .values({ sha256, content, size: content.length, created_at: new Date().toISOString() })
      .execute();
    await api.ctx.database.db
      .insertInto('deployment_files')
      .values({
        deployment_id: deployId,
        path: 'site.json',
        content_type: 'application/json',
        size: content.length,
        sha256,
      })
      .execute();
    expect((await fetchSite(port, p.host, '/site.json')).status).toBe(404);
    // Nor from a preview of such a project, nor published again.
    await api.put(`/api/v1/projects/${p.id}/files/site.json`, { content: BRIEF });
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: '<h1>Old</h1>' });
    expect((await fetchPreview(p.id, 'site.json')).status).toBe(404);
    const again = (await api.post(`/api/v1/projects/${p.id}/publish`)).body;
    const stored = await api.ctx.database.db
      .selectFrom('deployment_files')
      .select('path')
      .where('deployment_id', '=', again.deployId)
      .execute();
    expect(stored.map((f) => f.path).sort()).toEqual(['index.html', 'robots.txt', 'sitemap.xml']);
    // The next follow-up moves them under .sitewright/.
    await generated(p.id, 'Make it green');
    const paths = (await api.get(`/api/v1/projects/${p.id}/files`)).body.files.map(
      (f: { path: string }) => f.path,
    );
    expect(paths).toContain('.sitewright/builtin-brief.json');
    expect(paths).not.toContain('site.json');
  });

  it("still serves a site's own site.json", async () => {
    const p = await project();
    await api.post(`/api/v1/projects/${p.id}/publish`, {
      builtFiles: { 'index.html': '<h1>Hi</h1>', 'site.json': '{"menu":["home"]}' },
    });
    const res = await fetchSite(port, p.host, '/site.json');
    expect([res.status, res.body]).toEqual([200, '{"menu":["home"]}']);
  });
});

describe('paths under .sitewright/', () => {
  it('may be written through the files API; other hidden folders still may not', async () => {
    const p = await project();
    expect(
      (await api.put(`/api/v1/projects/${p.id}/files/.sitewright/notes.txt`, { content: 'private' })).status,
    ).toBe(201);
    const refused = await api.put(`/api/v1/projects/${p.id}/files/.git/config`, { content: 'x' });
    expect(refused.status).toBe(400);
    expect((await api.put(`/api/v1/projects/${p.id}/files/a/.sitewright/x`, { content: 'x' })).status).toBe(
      400,
    );
    const published = await api.post(`/api/v1/projects/${p.id}/publish`, {
      builtFiles: { 'index.html': 'hi', '.sitewright/x.txt': 'private' },
    });
    expect(published.status).toBe(200);
    expect((await fetchSite(port, p.host, '/.sitewright/x.txt')).status).toBe(404);
  });
});
