// The 404/SPA rule, through real HTTP: a path that matches no file answers the site's own
// 404.html with status 404 (not counted as a page view) when the site has one; only a site
// without one is served as a single-page app, its extension-less routes answered by index.html.
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { rawViews } from '../helpers/page-views.ts';
import { fetchSite } from '../helpers/site-client.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test', ANALYTICS_FLUSH_INTERVAL: '50ms' });
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

const UA = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
};

async function publish(builtFiles: Record<string, string>) {
  const client = await createClient(api);
  const p = await createProject(api, { client_email: client.email, name: 'Rule site' });
  await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles });
  return { id: p.id as string, host: `${p.subdomain}.sites.test` };
}

describe('a site with a 404.html', () => {
  it('answers paths that match no file with its 404 page and status 404, and counts no view for them', async () => {
    const site = await publish({
      'index.html': '<h1>Home</h1>',
      '404.html': '<h1>Lost</h1>',
      'blog/index.html': '<h1>Blog</h1>',
    });
    for (const path of ['/nope', '/about', '/blog/missing', '/nope/', '/missing.html', '/a/b/c']) {
      const res = await fetchSite(port, site.host, path, UA);
      expect([path, res.status, res.body]).toEqual([path, 404, '<h1>Lost</h1>']);
    }
    // What exists still answers, extension-less directories included.
    expect((await fetchSite(port, site.host, '/', UA)).body).toBe('<h1>Home</h1>');
    expect((await fetchSite(port, site.host, '/blog', UA)).body).toBe('<h1>Blog</h1>');
    await api.ctx.services.capture.flush();
    const views = await rawViews(api.ctx.database.db, { orgId: api.org.id, projectId: site.id });
    expect(views.map((v) => v.path).sort()).toEqual(['/', '/blog']);
  });

  it('applies the same rule to preview links', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Preview rule' });
    for (const [path, content] of [
      ['index.html', 'home'],
      ['404.html', 'lost'],
    ]) {
      expect((await api.request('PUT', `/api/v1/projects/${p.id}/files/${path}`, { content })).status).toBe(
        201,
      );
    }
    const preview = new URL((await api.get(`/api/v1/projects/${p.id}/preview`)).body.preview_url);
    const res = await fetchSite(port, preview.host, `${preview.pathname}about`);
    expect([res.status, res.body]).toEqual([404, 'lost']);
  });
});

describe('a site without a 404.html', () => {
  it('is a single-page app: extension-less routes answer index.html with 200, missing files 404', async () => {
    const site = await publish({ 'index.html': '<div id="app"></div>' });
    const route = await fetchSite(port, site.host, '/app/settings', UA);
    expect([route.status, route.body]).toEqual([200, '<div id="app"></div>']);
    expect((await fetchSite(port, site.host, '/missing.js', UA)).status).toBe(404);
    expect((await fetchSite(port, site.host, '/dir/', UA)).status).toBe(404);
  });
});
