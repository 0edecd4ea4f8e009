// Traffic and forms of published sites, through real HTTP requests: page views captured server
// side (devices, bots, referrers, repeat visitors; assets, HEAD, 304s and previews not counted)
// reach GET /analytics; contact forms reach the submissions API and the webhook outbox.
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { visitorHash } from '../../src/modules/analytics/visitor.ts';
import { rawViews } from '../helpers/page-views.ts';

const api = useTestApi({
  SITES_DOMAIN: 'sites.test',
  FORM_RATE_LIMIT: '4',
  ANALYTICS_FLUSH_INTERVAL: '50ms',
  FORM_MAX_BYTES: '2000',
});
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

const UA = {
  desktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  mobile:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  tablet:
    'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  bot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

async function publishedSite() {
  const client = await createClient(api);
  const p = await createProject(api, { client_email: client.email, name: 'Traffic site' });
  const form =
    '<form action="/_forms/contact" method="post"><input name="name"><input name="_gotcha"></form>';
  await api.post(`/api/v1/projects/${p.id}/publish`, {
    builtFiles: {
      'index.html': `<h1>Home</h1>${form}`,
      'pricing/index.html': '<h1>Pricing</h1>',
      'site.css': 'h1{}',
    },
  });
  return { ...p, host: `${p.subdomain}.sites.test` };
}

function post(host: string, path: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, any>; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { host, 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('page views', () => {
  it('counts HTML pages by device, referrer and visitor; not bots, HEAD, assets, 304s or previews', async () => {
    const site = await publishedSite();
    const visit = (path: string, ua: string, headers: Record<string, string> = {}) =>
      fetchSite(port, site.host, path, { 'user-agent': ua, ...headers });
    await visit('/', UA.desktop, { referer: 'https://www.google.com/search?q=bread' });
    await visit('/pricing/', UA.desktop, { referer: `http://${site.host}/` }); // own site: direct
    await visit('/?utm_source=mail', UA.mobile);
    await visit('/pricing/', UA.tablet, { referer: 'https://news.ycombinator.com/item?id=1' });
    // Not counted:
    await visit('/', UA.bot);
    await fetchSite(port, site.host, '/'); // no User-Agent at all: a bot, and no harm to the batch
    await visit('/site.css', UA.desktop);
    await fetchSite(port, site.host, '/', { 'user-agent': UA.desktop }, 'HEAD');
    const etag = (await visit('/', UA.mobile)).headers.etag as string; // counted (the 5th view)
    expect((await visit('/', UA.mobile, { 'if-none-match': etag })).status).toBe(304);
    await api.put(`/api/v1/projects/${site.id}/files/index.html`, { content: '<h1>Draft</h1>' });
    const preview = new URL((await api.get(`/api/v1/projects/${site.id}/preview`)).body.preview_url);
    const seen = await fetchSite(port, preview.host, preview.pathname, { 'user-agent': UA.desktop });
    expect(seen.status).toBe(200);
    await api.ctx.services.capture.flush();

    const { analytics } = (await api.get(`/api/v1/analytics?days=7&project_id=${site.id}`)).body;
    expect(analytics.totalViews).toBe(5);
    // The same browser on the same site and day is one visitor: desktop, mobile, tablet.
    expect(analytics.uniqueVisitors).toBe(3);
    expect(analytics.topPages).toEqual([
      { path: '/', views: 3 },
      { path: '/pricing/', views: 2 },
    ]);
    expect(analytics.topReferrers).toEqual([
      { referrer: '(direct)', views: 3 },
      { referrer: 'news.ycombinator.com', views: 1 },
      { referrer: 'www.google.com', views: 1 },
    ]);
    expect(analytics.deviceBreakdown).toEqual([
      { device: 'desktop', views: 2 },
      { device: 'mobile', views: 2 },
      { device: 'tablet', views: 1 },
    ]);
    expect(analytics.dailyViews.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), views: 5 });

    // Stored: no IP, no User-Agent, only a hash that changes with the day's salt.
    const rows = await rawViews(api.ctx.database.db, { orgId: api.org.id, projectId: site.id });
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.visitor_hash))).toBe(true);
    const packs = await api.ctx.database.db
      .selectFrom('page_view_packs')
      .selectAll()
      .where('project_id', '=', site.id)
      .execute();
    expect(JSON.stringify(packs)).not.toContain('127.0.0.1');
    expect(JSON.stringify(packs)).not.toContain('Mozilla');
    const salts = await api.ctx.database.db.selectFrom('analytics_salts').selectAll().execute();
    expect(salts.map((s) => s.day)).toEqual([new Date().toISOString().slice(0, 10)]);
    // SHA-256 of the day's salt, the site, the address and the User-Agent.
    const desktopHash = visitorHash(salts[0]!.salt, site.id, '127.0.0.1', UA.desktop);
    expect(rows.filter((r) => r.visitor_hash === desktopHash)).toHaveLength(2);
  });

  it('keeps each organization to its own sites', async () => {
    const site = await publishedSite();
    await fetchSite(port, site.host, '/', { 'user-agent': UA.desktop });
    await api.ctx.services.capture.flush();
    const other = await api.newOrg('Other');
    const theirs = (await api.get('/api/v1/analytics', { key: other.key })).body.analytics;
    expect(theirs.totalViews).toBe(0);
    expect((await api.get(`/api/v1/analytics?project_id=${site.id}`, { key: other.key })).status).toBe(404);
    expect((await api.get('/api/v1/analytics')).body.analytics.totalViews).toBe(1);
  });
});

describe('SPA beacon', () => {
  it('serves the script and counts posted navigations like pages: bots left out, the query dropped', async () => {
    const site = await publishedSite();
    const script = await fetchSite(port, site.host, '/_sitewright/beacon.js', { 'user-agent': UA.desktop });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('/_sitewright/view');
    expect(script.body).toContain('pushState');

    const beacon = (path: string, ua: string) =>
      post(site.host, '/_sitewright/view', JSON.stringify({ path }), {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent': ua,
        referer: `http://${site.host}/`,
      });
    await fetchSite(port, site.host, '/', { 'user-agent': UA.desktop }); // the landing page, counted by the server
    expect((await beacon('/app/settings?tab=2', UA.desktop)).status).toBe(204);
    expect((await beacon('/app/billing', UA.mobile)).status).toBe(204);
    expect((await beacon('/app/billing', UA.bot)).status).toBe(204);
    await api.ctx.services.capture.flush();

    const { analytics } = (await api.get(`/api/v1/analytics?days=1&project_id=${site.id}`)).body;
    expect(analytics.totalViews).toBe(3);
    expect(analytics.topPages).toEqual([
      { path: '/', views: 1 },
      { path: '/app/billing', views: 1 },
      { path: '/app/settings', views: 1 },
    ]);
    // The Referer is the site's own page: an in-site navigation is direct traffic.
    expect(analytics.topReferrers).toEqual([{ referrer: '(direct)', views: 3 }]);
    expect(analytics.deviceBreakdown).toEqual([
      { device: 'desktop', views: 2 },
      { device: 'mobile', views: 1 },
    ]);
  });

  it('refuses what is not a path on the site, too large a body and other methods, counting nothing', async () => {
    const site = await publishedSite();
    const send = (body: string) => post(site.host, '/_sitewright/view', body, { 'user-agent': UA.desktop });
    for (const body of [
      'not json',
      '{}',
      '{"path":"https://evil.example/"}',
      '{"path":"//evil.example/x"}',
      '{"path":"/a\\u0000b"}',
      `{"path":"/${'x'.repeat(600)}"}`,
      'null',
    ]) {
      const res = await send(body);
      expect(res.status, body).toBe(400);
      expect(res.body).toContain('path');
    }
    expect((await send(JSON.stringify({ path: '/' + 'y'.repeat(2000) }))).status).toBe(413);
    expect((await fetchSite(port, site.host, '/_sitewright/view', { 'user-agent': UA.desktop })).status).toBe(
      405,
    );
    expect((await post(site.host, '/_sitewright/beacon.js', '', {})).status).toBe(405);
    expect(
      (await fetchSite(port, site.host, '/_sitewright/other', { 'user-agent': UA.desktop })).status,
    ).toBe(404);
    await api.ctx.services.capture.flush();
    expect((await api.get(`/api/v1/analytics?days=1&project_id=${site.id}`)).body.analytics.totalViews).toBe(
      0,
    );
  });
});

describe('form submissions', () => {
  it('stores a post, redirects to a thank-you page, lists it, and writes form.submitted to the outbox', async () => {
    const site = await publishedSite();
    const res = await post(
      site.host,
      '/_forms/contact',
      'name=Ann+Lee&email=ann%40example.com&message=Hello%21&_gotcha=',
      {
        'content-type': 'application/x-www-form-urlencoded',
        referer: `http://${site.host}/pricing/`,
      },
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/_forms/contact/thanks?back=%2Fpricing%2F');
    const thanks = await fetchSite(port, site.host, res.headers.location);
    expect(thanks.body).toContain('Thank you');
    expect(thanks.body).toContain('href="/pricing/"');

    const list = (await api.get(`/api/v1/projects/${site.id}/submissions`)).body;
    expect(list.total).toBe(1);
    expect(list.submissions[0]).toMatchObject({
      project_id: site.id,
      form: 'contact',
      fields: { name: 'Ann Lee', email: 'ann@example.com', message: 'Hello!' },
      page: '/pricing/',
    });
    const event = await api.ctx.database.db
      .selectFrom('events')
      .select('payload')
      .where('org_id', '=', api.org.id)
      .where('type', '=', 'form.submitted')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload).data).toEqual({ submission: list.submissions[0] });
  });

  it('answers fetch callers in JSON, filters by form, deletes, and scopes to the organization', async () => {
    const site = await publishedSite();
    const res = await post(site.host, '/_forms/newsletter', JSON.stringify({ email: 'b@example.com' }), {
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, message: 'Thank you! Your message has been sent.' });
    await post(site.host, '/_forms/contact', 'name=C', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    const only = (await api.get(`/api/v1/projects/${site.id}/submissions?form=newsletter`)).body;
    expect(only.total).toBe(1);
    const other = await api.newOrg('Other');
    expect((await api.get(`/api/v1/projects/${site.id}/submissions`, { key: other.key })).status).toBe(404);
    expect(
      (
        await api.delete(`/api/v1/projects/${site.id}/submissions/${only.submissions[0].id}`, {
          key: other.key,
        })
      ).status,
    ).toBe(404);
    expect(
      (await api.delete(`/api/v1/projects/${site.id}/submissions/${only.submissions[0].id}`)).body,
    ).toEqual({ deleted: true, id: only.submissions[0].id });
    expect((await api.get(`/api/v1/projects/${site.id}/submissions`)).body.total).toBe(1);
  });

  it('drops honeypot posts silently, refuses oversize bodies, and limits posts per address', async () => {
    const site = await publishedSite();
    const spam = await post(site.host, '/_forms/contact', 'name=Bot&_gotcha=http://spam.example', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(spam.status).toBe(303);
    const big = await post(site.host, '/_forms/contact', `message=${'x'.repeat(3000)}`, {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    });
    expect(big.status).toBe(413);
    const odd = await post(site.host, '/_forms/contact', 'x', { 'content-type': 'text/plain' });
    expect(odd.status).toBe(415);
    expect((await api.get(`/api/v1/projects/${site.id}/submissions`)).body.total).toBe(0);
    // FORM_RATE_LIMIT=4 per address and site: the three above and one more pass, then 429.
    expect(
      (
        await post(site.host, '/_forms/contact', 'name=D', {
          'content-type': 'application/x-www-form-urlencoded',
        })
      ).status,
    ).toBe(303);
    const limited = await post(site.host, '/_forms/contact', 'name=E', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await api.get(`/api/v1/projects/${site.id}/submissions`)).body.total).toBe(1);
  });
});
