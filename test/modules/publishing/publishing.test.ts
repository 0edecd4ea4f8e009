// Publishing and hosting through real HTTP: a site goes live on its host name, with content
// types, ETags, compression, directory indexes, its own 404 page and an SPA fallback; unpublish
// and delete take it down at once; previews open the current files with a signed link.
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject, OTHER_UUID } from '../../helpers/fixtures.ts';
import { fetchSite } from '../../helpers/site-client.ts';
import { PreviewSigner } from '../../../src/modules/publishing/preview-signer.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test', PREVIEW_TTL: '1h' });
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

const BIG_HTML = `<!doctype html><html><body>${'<p>Fresh bread every day.</p>'.repeat(100)}</body></html>`;

async function site(name = 'Bakery Site') {
  const client = await createClient(api);
  return createProject(api, { client_email: client.email, name });
}
const host = (p: { subdomain: string }) => `${p.subdomain}.sites.test`;

describe('POST /projects/{id}/publish', () => {
  it('publishes builtFiles as a deployment that goes live on the subdomain, with the event', async () => {
    const p = await site();
    const res = await api.post(`/api/v1/projects/${p.id}/publish`, {
      builtFiles: {
        'index.html': BIG_HTML,
        'about/index.html': '<h1>About</h1>',
        'app.js': 'console.log(1)',
        '404.html': '<h1>Lost?</h1>',
      },
    });
    expect(res.status).toBe(200);
    const url = `http://${p.subdomain}.sites.test/`;
    expect(res.body).toMatchObject({
      url,
      deployId: expect.any(String),
      status: 'ready',
      project: { id: p.id, published_url: url },
    });
    expect(res.body.project.last_published_at).not.toBeNull();
    expect((await api.get(`/api/v1/projects/${p.id}`)).body.project).toMatchObject({
      published_url: url,
      last_published_at: res.body.project.last_published_at,
    });

    const event = await api.ctx.database.db
      .selectFrom('events')
      .select('payload')
      .where('org_id', '=', api.org.id)
      .where('type', '=', 'project.published')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload).data).toEqual({
      project: res.body.project,
      deployment_id: res.body.deployId,
    });

    const home = await fetchSite(port, host(p), '/');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.body).toBe(BIG_HTML);
    expect(home.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(home.headers['set-cookie']).toBeUndefined();
    expect(home.headers['ratelimit']).toBeUndefined();

    const js = await fetchSite(port, host(p), '/app.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=300');
    expect((await fetchSite(port, host(p), '/about/')).body).toBe('<h1>About</h1>');
    expect((await fetchSite(port, host(p), '/about')).body).toBe('<h1>About</h1>');
    // The 404/SPA rule: this site has a 404.html, so an unknown route is a 404, not index.html.
    const route = await fetchSite(port, host(p), '/dashboard/settings?tab=1');
    expect([route.status, route.body]).toEqual([404, '<h1>Lost?</h1>']);
    const missing = await fetchSite(port, host(p), '/missing.png');
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('<h1>Lost?</h1>');
  });

  it('answers 304 to a matching If-None-Match and compresses when asked', async () => {
    const p = await site();
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': BIG_HTML } });
    const first = await fetchSite(port, host(p), '/');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await fetchSite(port, host(p), '/', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    // A list of tags, a weak tag (a proxy that recompressed the page), or *.
    for (const header of [`"other", ${etag}`, `W/${etag}`, '*'])
      expect((await fetchSite(port, host(p), '/', { 'if-none-match': header })).status, header).toBe(304);
    expect((await fetchSite(port, host(p), '/', { 'if-none-match': '"other"' })).status).toBe(200);
    const gz = await fetchSite(port, host(p), '/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body).toBe(BIG_HTML);
    expect(Number(gz.headers['content-length'])).toBeLessThan(BIG_HTML.length / 5);
    const br = await fetchSite(port, host(p), '/', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body).toBe(BIG_HTML);
    expect(br.headers.vary).toBe('Accept-Encoding');
  });

  it('publishes the project files without builtFiles; each publish is a new immutable deployment', async () => {
    const p = await site();
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: '<h1>v1</h1>' });
    const v1 = (await api.post(`/api/v1/projects/${p.id}/publish`)).body;
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: '<h1>v2</h1>' });
    // Editing the files does not change the live site until the next publish.
    expect((await fetchSite(port, host(p), '/')).body).toBe('<h1>v1</h1>');
    const v2 = (await api.post(`/api/v1/projects/${p.id}/publish`, {})).body;
    expect(v2.deployId).not.toBe(v1.deployId);
    expect((await fetchSite(port, host(p), '/')).body).toBe('<h1>v2</h1>');
  });

  it('refuses a project without files or without index.html, and bad paths, publishing nothing', async () => {
    const p = await site();
    const empty = await api.post(`/api/v1/projects/${p.id}/publish`);
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain('no files');
    const noIndex = await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'about.html': 'x' } });
    expect(noIndex.status).toBe(400);
    expect(noIndex.body.error).toContain('index.html');
    const traversal = await api.post(`/api/v1/projects/${p.id}/publish`, {
      builtFiles: { 'index.html': 'x', '../evil.html': 'x' },
    });
    expect(traversal.status).toBe(400);
    expect((await api.post(`/api/v1/projects/${p.id}/publish`, { files: {} })).status).toBe(400);
    expect((await api.get(`/api/v1/projects/${p.id}`)).body.project.published_url).toBeNull();
    expect((await fetchSite(port, host(p), '/')).status).toBe(404);
  });

  it('takes builtFiles well beyond the 1 MiB API body limit, up to the project size limit', async () => {
    const p = await site();
    const chunk = `<p>${'Fresh bread every morning. '.repeat(40)}</p>\n`;
    const builtFiles: Record<string, string> = {
      'index.html': `<!doctype html><title>Big</title>${chunk.repeat(2_000)}`,
    };
    for (let i = 0; i < 3; i++) builtFiles[`page-${i}.html`] = chunk.repeat(1_000);
    expect(JSON.stringify({ builtFiles }).length).toBeGreaterThan(4_000_000);
    const res = await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles });
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200);
    expect((await fetchSite(port, host(p), '/page-2.html')).body).toBe(builtFiles['page-2.html']);
  });

  it('needs write, and another organization’s project is a 404', async () => {
    const p = await site();
    expect((await api.post(`/api/v1/projects/${p.id}/publish`, undefined, { key: api.readKey })).status).toBe(
      403,
    );
    const other = await api.newOrg('Other');
    expect(
      (
        await api.post(
          `/api/v1/projects/${p.id}/publish`,
          { builtFiles: { 'index.html': 'x' } },
          { key: other.key },
        )
      ).status,
    ).toBe(404);
    expect((await api.post(`/api/v1/projects/${p.id}/unpublish`, undefined, { key: other.key })).status).toBe(
      404,
    );
    expect((await api.get(`/api/v1/projects/${p.id}/preview`, { key: other.key })).status).toBe(404);
    expect((await api.post(`/api/v1/projects/${OTHER_UUID}/publish`)).status).toBe(404);
  });
});

describe('taking a site down', () => {
  it('unpublish answers 404 at once and nulls published_url; republish brings it back', async () => {
    const p = await site();
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'live' } });
    expect((await fetchSite(port, host(p), '/')).status).toBe(200);
    const res = await api.post(`/api/v1/projects/${p.id}/unpublish`);
    expect(res.status).toBe(200);
    expect(res.body.project.published_url).toBeNull();
    expect(res.body.project.last_published_at).not.toBeNull();
    expect((await fetchSite(port, host(p), '/')).status).toBe(404);
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'back' } });
    expect((await fetchSite(port, host(p), '/')).body).toBe('back');
  });

  it('archiving keeps the site up; deleting takes it down at once', async () => {
    const p = await site();
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'live' } });
    await api.patch(`/api/v1/projects/${p.id}`, { status: 'archived' });
    expect((await fetchSite(port, host(p), '/')).status).toBe(200);
    await api.delete(`/api/v1/projects/${p.id}`);
    expect((await fetchSite(port, host(p), '/')).status).toBe(404);
  });

  it('never lets a site host reach the API, and ignores its cookies', async () => {
    const p = await site();
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'live' } });
    const res = await fetchSite(port, host(p), '/api/v1/clients', {
      authorization: `Bearer ${api.key}`,
      cookie: 'session=abc',
    });
    expect(res.body).toBe('live');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await fetchSite(port, host(p), '/', {}, 'POST')).status).toBe(405);
    expect((await fetchSite(port, 'nothing-here.sites.test', '/')).status).toBe(404);
  });
});

describe('GET /projects/{id}/preview', () => {
  it('gives a signed link to the current files that works without credentials, and expires', async () => {
    const p = await site();
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, {
      content: '<link rel="stylesheet" href="s.css"><h1>draft</h1>',
    });
    await api.put(`/api/v1/projects/${p.id}/files/s.css`, { content: 'h1{color:red}' });
    const res = await api.get(`/api/v1/projects/${p.id}/preview`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      published_url: null,
      has_published: false,
      embed_preview_path: `/embed/projects/${p.id}/preview`,
    });
    expect(Math.abs(Date.parse(res.body.preview_expires_at) - Date.now() - 3_600_000)).toBeLessThan(5_000);
    const url = new URL(res.body.preview_url);
    // Its own origin under the sites domain, never the API's (the dashboard's) host.
    expect(url.origin).toBe('http://preview.sites.test');
    const previewHost = url.host;
    const page = await fetchSite(port, previewHost, url.pathname);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>draft</h1>');
    expect(page.body).not.toContain('_sitewright/edit.js');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    // An opaque origin even there: previewed pages cannot reach one another.
    expect(page.headers['content-security-policy']).toMatch(/^sandbox allow-scripts/);
    expect(page.headers['content-security-policy']).not.toContain('allow-same-origin');
    expect((await fetchSite(port, previewHost, `${url.pathname}s.css`)).body).toBe('h1{color:red}');
    // The builder opens it with ?edit=1: the selection script is added to pages, not to other files.
    const editing = await fetchSite(port, previewHost, `${url.pathname}?edit=1`);
    // As the page's first element, so that it runs before any script of the site (it alone must
    // hear the builder's answer); after the doctype when there is one.
    expect(editing.body).toBe(
      '<script src="/_sitewright/edit.js" data-sitewright-file="index.html"></script><link rel="stylesheet" href="s.css"><h1>draft</h1>',
    );
    await api.put(`/api/v1/projects/${p.id}/files/about.html`, {
      content:
        '<!-- kept --><!DOCTYPE html><html><head><script src="mine.js"></script></head><body><h1>About</h1></body></html>',
    });
    const about = (await fetchSite(port, previewHost, `${url.pathname}about.html?edit=1`)).body;
    expect(about).toMatch(
      /^<!-- kept --><!DOCTYPE html><script src="\/_sitewright\/edit\.js" data-sitewright-file="about\.html"><\/script><html><head><script src="mine\.js"><\/script>/,
    );
    // With what publishing will add to its head (a page with a head of its own; the one above has none).
    expect(about).toContain(`<link rel="canonical" href="http://${p.subdomain}.sites.test/about.html">`);
    expect(about.endsWith('</head><body><h1>About</h1></body></html>')).toBe(true);
    // Many comments and no doctype: answered at once (a nested lazy pattern backtracked exponentially).
    await api.put(`/api/v1/projects/${p.id}/files/comments.html`, {
      content: `${'<!---->'.repeat(60)}<p>x</p>`,
    });
    expect((await fetchSite(port, previewHost, `${url.pathname}comments.html?edit=1`)).body).toMatch(
      /^<script src="\/_sitewright\/edit\.js"[^>]*><\/script><!---->/,
    );
    expect(editing.headers.etag).not.toBe(page.headers.etag);
    expect((await fetchSite(port, previewHost, `${url.pathname}s.css?edit=1`)).body).toBe('h1{color:red}');
    const script = await fetchSite(port, previewHost, '/_sitewright/edit.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    // The old form of the link, on the API host, leads there.
    const legacy = await fetchSite(port, 'sitewright.test', `/preview${url.pathname}s.css`);
    expect(legacy.status).toBe(302);
    expect(legacy.headers.location).toBe(`${url.origin}${url.pathname}s.css`);
    // The API host does not serve previews itself, and the preview host serves nothing else.
    expect((await fetchSite(port, 'sitewright.test', url.pathname)).status).toBe(404);
    expect((await fetchSite(port, previewHost, '/')).status).toBe(404);
    expect((await fetchSite(port, previewHost, url.pathname, {}, 'POST')).status).toBe(405);

    const tampered = url.pathname.replace(
      /\/([A-Za-z0-9_-]{32})\/$/,
      (_m, sig: string) => `/${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}/`,
    );
    expect((await fetchSite(port, previewHost, tampered)).status).toBe(404);
    const [, projectId, expires, sig] = url.pathname.split('/');
    const expired = `/${projectId}/${Number(expires) - 7200}/${sig}/`;
    expect((await fetchSite(port, previewHost, expired)).status).toBe(404);
    const signer = new PreviewSigner(api.ctx.database, api.ctx.config.sites.previewSecret);
    const past = Math.floor(Date.now() / 1000) - 10;
    expect(
      (await fetchSite(port, previewHost, `/${projectId}/${past}/${await signer.sign(projectId!, past)}/`))
        .status,
    ).toBe(404);
    // A project's link never opens as a version's, nor the other way round.
    expect((await fetchSite(port, previewHost, `/v/${projectId}/${expires}/${sig}/`)).status).toBe(404);
  });

  it('gives each version a link of its own that serves the files as they were', async () => {
    const p = await site();
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: '<h1>first</h1>' });
    await api.put(`/api/v1/projects/${p.id}/files/index.html`, { content: '<h1>second</h1>' });
    const versions = (await api.get(`/api/v1/projects/${p.id}/versions`)).body.versions;
    const first = (await api.get(`/api/v1/projects/${p.id}/versions/${versions.at(-1).id}`)).body.version;
    const link = new URL(first.preview_url);
    expect(link.pathname).toMatch(new RegExp(`^/v/${first.id}/\\d+/[A-Za-z0-9_-]{32}/$`));
    expect(Math.abs(Date.parse(first.preview_expires_at) - Date.now() - 3_600_000)).toBeLessThan(5_000);
    expect((await fetchSite(port, link.host, link.pathname)).body).toBe('<h1>first</h1>');
    const current = new URL((await api.get(`/api/v1/projects/${p.id}/preview`)).body.preview_url);
    expect((await fetchSite(port, current.host, current.pathname)).body).toBe('<h1>second</h1>');
    // Another version's id under this signature: refused.
    const [, , , expires, sig] = link.pathname.split('/');
    expect((await fetchSite(port, link.host, `/v/${versions[0].id}/${expires}/${sig}/`)).status).toBe(404);
  });
});
