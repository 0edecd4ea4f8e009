// The embed frame over HTTP, on both engines: the host SDK, the handshake page and who may frame
// it, the token's one exchange for the partitioned cookie, the builder and the pane under that
// cookie (framed by the session's origins only, forms bound to the cookie), and the dashboard's
// Embedding page. The same flows in Chromium: test/browser/embed.test.ts.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createProject } from '../helpers/fixtures.ts';
import { PageSession, visibleText } from '../helpers/page-session.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';
import { embedFormToken } from '../../src/modules/embed/service.ts';

const api = useTestApi({ RATE_LIMIT_QUOTA: '30' });
const HOST = 'https://app.host.example';
const OWN = () => new URL(api.ctx.config.publicUrl).origin;

async function session(body: Record<string, unknown> = {}, reuse?: string) {
  await api.ctx.services.embed.setOrigins(systemPrincipal(api.org.id), [HOST, 'https://other.host.example']);
  const key = reuse ?? (await api.ctx.services.orgs.createKey(api.org.id, ['embed'], 'embed')).key;
  const res = await api.post(
    '/api/embed/session',
    {
      user: { external_id: 'f-1', email: 'frame@example.com' },
      mode: 'full',
      allowed_origins: [HOST],
      ...body,
    },
    { key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { key, session: res.body.session };
}

function exchange(payload: Record<string, unknown>, origin: string | null = OWN()) {
  return api.app.inject({
    method: 'POST',
    url: '/embed/exchange',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    payload: JSON.stringify(payload),
  });
}

/** The frame's cookie after a successful exchange. */
async function frameCookie(s: { id: string; token: string }, pane?: string) {
  const res = await exchange({ token: s.token, origin: HOST, session: s.id, ...(pane ? { pane } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  const set = String(res.headers['set-cookie']);
  const secret = /^sitewright_embed=([^;]+)/.exec(set)![1]!;
  return { set, secret, cookie: `sitewright_embed=${secret}`, answer: res.json() };
}

const policy = (headers: Record<string, unknown>) => String(headers['content-security-policy']);

describe('the host SDK', () => {
  it('is served as a classic script and as a module, cached, revalidated by ETag', async () => {
    const js = await api.app.inject({ url: '/embed/sdk.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toContain('window.Sitewright = createSitewright();');
    expect(js.headers['cache-control']).toMatch(/max-age=86400/);
    expect(js.body.length).toBeLessThan(12_000);
    const again = await api.app.inject({
      url: '/embed/sdk.js',
      headers: { 'if-none-match': String(js.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const mjs = await api.app.inject({ url: '/embed/sdk.mjs' });
    expect(mjs.body).toMatch(/export default Sitewright;\nexport const mount = Sitewright.mount;/);
    expect(mjs.body).not.toContain('window.Sitewright');
  });
});

describe('the handshake page', () => {
  it("may be framed by the session's origins only; an unknown or ended session's page by no one", async () => {
    const { key, session: s } = await session();
    const page = await api.app.inject({ url: `/embed/s/${s.id}` });
    expect(page.statusCode).toBe(200);
    expect(policy(page.headers)).toMatch(new RegExp(`frame-ancestors ${HOST}$`));
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.body).toContain(`data-origins="[&#34;${HOST}&#34;]"`);
    expect(page.body).not.toContain('embt_');
    for (const url of ['/embed/s/00000000-0000-4000-8000-000000000000', '/embed/s/nope']) {
      const res = await api.app.inject({ url });
      expect([url, res.statusCode, policy(res.headers)]).toEqual([
        url,
        404,
        expect.stringMatching(/frame-ancestors 'none'$/),
      ]);
    }
    await api.delete(`/api/embed/session/${s.id}`, { key });
    expect((await api.app.inject({ url: `/embed/s/${s.id}` })).statusCode).toBe(404);
    // Every other page keeps refusing to be framed.
    expect(policy((await api.app.inject({ url: '/sign-in' })).headers)).toMatch(/frame-ancestors 'none'/);
  });
});

describe('the exchange', () => {
  it('trades the token once for a Secure, HttpOnly, SameSite=None, Partitioned cookie under /embed', async () => {
    const { session: s } = await session();
    const { set, answer } = await frameCookie(s);
    for (const part of [
      `Path=/embed/s/${s.id}`,
      'HttpOnly',
      'Secure',
      'SameSite=None',
      'Partitioned',
      'Max-Age=',
    ])
      expect(set).toContain(part);
    expect(answer).toEqual({
      next: `/embed/s/${s.id}/projects`,
      expires_at: s.expires_at,
      csrf: expect.any(String),
    });
    const twice = await exchange({ token: s.token, origin: HOST, session: s.id });
    expect([twice.statusCode, twice.json().error]).toEqual([
      403,
      expect.stringMatching(/cannot be opened here/),
    ]);
  });

  it('refuses another origin, another page, a headless token, another user and malformed bodies', async () => {
    const { key, session: s } = await session();
    const cases: [Record<string, unknown>, string | null, number][] = [
      [{ token: s.token, origin: 'https://other.host.example', session: s.id }, OWN(), 403],
      [{ token: s.token, origin: 'https://evil.example', session: s.id }, OWN(), 403],
      [{ token: s.token, origin: HOST, session: s.id }, 'https://evil.example', 403],
      [{ token: s.token, origin: HOST, session: s.id }, null, 403],
      [{ token: s.token, origin: HOST }, OWN(), 400],
      [{ token: s.token, origin: HOST, session: s.id, extra: 1 }, OWN(), 400],
      [{ token: 'embt_nope', origin: HOST, session: s.id }, OWN(), 403],
    ];
    for (const [body, origin, status] of cases) {
      const res = await exchange(body, origin);
      expect([JSON.stringify(body), origin, res.statusCode]).toEqual([JSON.stringify(body), origin, status]);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const headless = (
      await api.post('/api/embed/session', { user: { external_id: 'f-1' }, mode: 'headless' }, { key })
    ).body.session;
    expect((await exchange({ token: headless.token, origin: HOST, session: headless.id })).statusCode).toBe(
      403,
    );
    const stranger = (
      await api.post('/api/embed/session', { user: { email: 'x@example.com' }, mode: 'full' }, { key })
    ).body.session;
    // Another user's token cannot take over this user's frame.
    expect((await exchange({ token: stranger.token, origin: HOST, session: s.id })).statusCode).toBe(403);
    // A newer session of the same user can (the refresh before expiry).
    const newer = (
      await api.post('/api/embed/session', { user: { external_id: 'f-1' }, mode: 'full' }, { key })
    ).body.session;
    expect((await exchange({ token: newer.token, origin: HOST, session: s.id })).statusCode).toBe(200);
    // The token itself is still good for its own frame: none of the refusals spent it.
    expect((await exchange({ token: s.token, origin: HOST, session: s.id })).statusCode).toBe(200);
  });
});
describe('the builder in the frame', () => {
  it("answers the frame's cookie, framed by its origins, its forms bound to the cookie", async () => {
    const { session: s, key } = await session();
    const mine = await createProject(api, { name: 'Framed', client_email: 'frame@example.com' });
    const { cookie, secret } = await frameCookie(s);
    const at = (path: string) => `/embed/s/${s.id}/projects/${path}`;
    const page = await api.app.inject({ url: at(mine.id), headers: { cookie } });
    expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
    expect(policy(page.headers)).toMatch(new RegExp(`frame-ancestors ${HOST}(;|$)`));
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.body).toContain(`data-base="${at(mine.id)}"`);
    expect(page.body).toContain(`data-csrf="${embedFormToken(secret)}"`);
    expect(page.body).not.toContain('Your website</a>'); // no way out to the portal
    expect(page.body).not.toContain('/app/projects/');

    // A form post without the form token is refused; with it, it works.
    const post = (token?: string) =>
      api.app.inject({
        method: 'POST',
        url: `${at(mine.id)}/files`,
        headers: {
          cookie,
          accept: 'application/json',
          'content-type': 'application/json',
          ...(token ? { 'x-csrf-token': token } : {}),
        },
        payload: JSON.stringify({
          path: 'index.html',
          content: '<!doctype html><title>Hi</title><h1>Hi</h1>',
        }),
      });
    expect((await post()).statusCode).toBe(403);
    expect((await post('wrong')).statusCode).toBe(403);
    const saved = await post(embedFormToken(secret));
    expect(saved.statusCode, saved.body).toBe(200);

    // Top-level without the cookie (the partition it lives in): no session; its page still
    // names no one but the host, and the frame's origins may show it.
    const alone = await api.app.inject({ url: at(mine.id) });
    expect([alone.statusCode, policy(alone.headers)]).toEqual([
      401,
      expect.stringMatching(new RegExp(`frame-ancestors ${HOST}(;|$)`)),
    ]);
    expect(visibleText(alone.body)).toContain('This builder session has ended.');
    expect(alone.body).not.toContain('Sitewright');
    expect(page.body).not.toContain('Sitewright');

    // The cookie is this frame's: another frame's pages (another session, even of the same
    // organization) do not take it, so no frame can take over another's.
    const otherFrame = (await session()).session;
    const carried = await api.app.inject({
      url: `/embed/s/${otherFrame.id}/projects/${mine.id}`,
      headers: { cookie },
    });
    expect(carried.statusCode).toBe(401);

    // Another client's project is not found; suspending the client stops the session.
    const other = await createProject(api, { name: 'Not theirs', client_email: (await otherClient()).email });
    expect((await api.app.inject({ url: at(other.id), headers: { cookie } })).statusCode).toBe(404);
    // Revoking the embed key that opened it ends it too.
    const live = await frameCookie((await session({}, key)).session);
    await api.ctx.services.orgs.revokeKey(
      (await api.ctx.services.orgs.listKeys(api.org.id)).find((k) => k.prefix === key.slice(0, 11))!.id,
    );
    expect(
      (await api.app.inject({ url: live.answer.next, headers: { cookie: live.cookie } })).statusCode,
    ).toBe(401);
    await api.patch(`/api/v1/clients/${s.client_id}`, { status: 'suspended' });
    expect((await api.app.inject({ url: at(mine.id), headers: { cookie } })).statusCode).toBe(401);
  });

  it('a hybrid session opens the preview pane and what it uses, through its preview_url', async () => {
    const pre = await session();
    const mine = await createProject(api, { name: 'Pane', client_email: 'frame@example.com' });
    const { session: s } = await session({ mode: 'hybrid', project_id: mine.id });
    expect(pre.session.client_id).toBe(s.client_id);
    const url = new URL(s.preview_url);
    const first = await api.app.inject({ url: `${url.pathname}${url.search}` });
    expect([first.statusCode, first.headers.location]).toEqual([
      303,
      `/embed/s/${s.id}?pane=preview&project=${mine.id}`,
    ]);
    const { cookie, answer, secret } = await frameCookie(s, 'preview');
    const base = `/embed/s/${s.id}/projects/${mine.id}`;
    expect(answer.next).toBe(`${base}/preview`);
    const pane = await api.app.inject({ url: answer.next, headers: { cookie } });
    expect(pane.statusCode).toBe(200);
    expect(pane.body).toContain('preview-only');
    expect((await api.app.inject({ url: base, headers: { cookie } })).statusCode).toBe(403);
    const act = (path: string, body: Record<string, unknown>) =>
      api.app.inject({
        method: 'POST',
        url: `${base}${path}`,
        headers: {
          cookie,
          accept: 'application/json',
          'content-type': 'application/json',
          'x-csrf-token': embedFormToken(secret),
        },
        payload: JSON.stringify(body),
      });
    // The pane prompts; it does not save files, restore versions or add domains.
    expect((await act('/generate', { prompt: 'A bakery' })).statusCode).toBe(200);
    expect((await act('/files', { path: 'a.html', content: 'x' })).statusCode).toBe(403);
    expect((await act('/domains', { domain: 'www.pane.example' })).statusCode).toBe(403);
    // Nor does it create websites.
    const create = await api.app.inject({
      method: 'POST',
      url: `/embed/s/${s.id}/projects`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: embedFormToken(secret), name: 'Sneaky' }).toString(),
    });
    expect(create.statusCode).toBe(403);
  });

  it('lists the user’s websites, creates one when the session may edit, in the session’s theme', async () => {
    const { session: s } = await session({ theme: { accent: '#c2255c', mode: 'dark' } });
    const { cookie, secret, answer } = await frameCookie(s);
    expect(answer.next).toBe(`/embed/s/${s.id}/projects`);
    const list = await api.app.inject({ url: answer.next, headers: { cookie } });
    expect(list.statusCode).toBe(200);
    expect(visibleText(list.body)).toContain('No website yet.');
    const created = await api.app.inject({
      method: 'POST',
      url: answer.next,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: embedFormToken(secret), name: 'Corner Shop' }).toString(),
    });
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toMatch(new RegExp(`^/embed/s/${s.id}/projects/[0-9a-f-]{36}$`));
    const theme = await api.app.inject({ url: `/embed/s/${s.id}/theme.css`, headers: { cookie } });
    expect(theme.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(theme.body).toContain(':root{--accent:#c2255c;');
    expect(theme.body).toContain('color-scheme:dark');
    expect((await api.app.inject({ url: `/embed/s/${s.id}/theme.css` })).body).toBe('');
  });
});

async function otherClient() {
  const res = await api.post('/api/v1/clients', { email: `other-${Date.now()}@example.com` });
  return res.body.client;
}

describe('Settings → Embedding', () => {
  it('sets the origins, creates an embed key once, lists and revokes sessions; owners and admins only', async () => {
    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    const empty = await owner.get('/settings/embedding');
    expect(empty.status).toBe(200);
    expect(visibleText(empty.body)).toContain('No session is open.');
    expect(empty.body).toContain(`${api.ctx.config.publicUrl}/embed/sdk.js`);
    const bad = await owner.post('/settings/embedding/origins', {
      origins: 'https://ok.example\nhttp://evil.example',
    });
    expect(bad.status).toBe(400);
    expect(visibleText(bad.body)).toContain("'http://evil.example' must use https");
    expect(await api.ctx.services.embed.origins(systemPrincipal(api.org.id))).toEqual([]);
    const saved = await owner.post('/settings/embedding/origins', {
      origins: `${HOST}\nhttp://localhost:5173`,
    });
    expect(saved.status).toBe(303);
    expect(await api.ctx.services.embed.origins(systemPrincipal(api.org.id))).toEqual([
      HOST,
      'http://localhost:5173',
    ]);

    const keyPage = await owner.post('/settings/embedding/keys', { name: 'Booking app' });
    const key = /value="(wk_[0-9A-Za-z]+)"/.exec(keyPage.body)![1]!;
    const opened = await api.post(
      '/api/embed/session',
      { user: { email: 'seen@example.com', external_id: 'booking-<42>' }, mode: 'full' },
      { key },
    );
    expect(opened.status).toBe(201);
    const clientPage = await owner.get(`/clients/${opened.body.session.client_id}`);
    expect(clientPage.body).toMatch(/booking-(&lt;|&#60;)42(&gt;|&#62;)/);
    const listed = await owner.get('/settings/embedding');
    expect(visibleText(listed.body)).toContain('seen@example.com');
    expect(listed.body).not.toContain(key);
    const revoked = await owner.post(`/settings/embedding/sessions/${opened.body.session.id}/revoke`);
    expect(revoked.status).toBe(303);
    expect(visibleText((await owner.get('/settings/embedding')).body)).toContain('No session is open.');

    const member = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    expect((await member.get('/settings/embedding')).status).toBe(403);
  });
});

// Last: it spends the address's quota that every exchange above shares.
describe('the exchange, flooded', () => {
  it('is limited per address', async () => {
    let last = 0;
    for (let i = 0; i < 35 && last !== 429; i++)
      last = (await exchange({ token: 'embt_x', origin: HOST, session: 'x' })).statusCode;
    expect(last).toBe(429);
  });
});
