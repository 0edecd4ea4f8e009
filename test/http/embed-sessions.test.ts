// POST and DELETE /api/embed/session, and a headless session's token on /api/v1: both engines.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createPlan, createProject, OTHER_UUID } from '../helpers/fixtures.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';
import { isWellFormedApiKey } from '../../src/lib/keys.ts';

const api = useTestApi();
const HOST = 'https://app.host.example';

async function embedKey(): Promise<string> {
  await api.ctx.services.embed.setOrigins(systemPrincipal(api.org.id), [HOST, 'http://localhost:5173']);
  return (await api.ctx.services.orgs.createKey(api.org.id, ['embed'], 'embed')).key;
}

async function open(key: string, body: Record<string, unknown>) {
  return api.post('/api/embed/session', body, { key });
}

describe('POST /api/embed/session', () => {
  it('opens a session for a new user: a client is created, the token is shown once', async () => {
    const key = await embedKey();
    const res = await open(key, {
      user: { external_id: 'u-1', email: 'Ada@Example.com', name: 'Ada' },
      mode: 'full',
      allowed_origins: [HOST],
      ttl_seconds: 600,
      theme: { accent: '#3b5bdb', mode: 'dark' },
      locale: 'en-GB',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { session } = res.body;
    expect(Object.keys(session).sort()).toEqual(
      [
        'allowed_origins',
        'client_id',
        'expires_at',
        'frame_url',
        'id',
        'mode',
        'permissions',
        'preview_url',
        'project_id',
        'token',
      ].sort(),
    );
    expect(session.token).toMatch(/^embt_[0-9A-Za-z]{49}$/);
    expect(isWellFormedApiKey(session.token, 'embt_')).toBe(true);
    expect(session.permissions).toEqual(['generate', 'edit']);
    expect(session.allowed_origins).toEqual([HOST]);
    expect(session.frame_url).toBe(`${api.ctx.config.publicUrl}/embed/s/${session.id}`);
    expect(session.frame_url).not.toContain(session.token);
    expect(session.preview_url).toBeNull();
    const left = Date.parse(session.expires_at) - Date.now();
    expect(left).toBeGreaterThan(590_000);
    expect(left).toBeLessThanOrEqual(600_000);
    const client = (await api.get(`/api/v1/clients/${session.client_id}`)).body.client;
    expect(client).toMatchObject({
      email: 'Ada@Example.com',
      name: 'Ada',
      status: 'active',
      external_id: 'u-1',
    });
    // Only the token's hash is stored.
    const rows = await api.ctx.database.db.selectFrom('embed_sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(session.token);

    // The same user again: the same client, found by external id, then by email.
    const again = await open(key, { user: { external_id: 'u-1' }, mode: 'headless' });
    expect(again.body.session.client_id).toBe(session.client_id);
    const byEmail = await open(key, { user: { email: 'ada@example.com' }, mode: 'headless' });
    expect(byEmail.body.session.client_id).toBe(session.client_id);
  });

  it('links an existing client by email, puts a new one on the default plan, and opens its project', async () => {
    const key = await embedKey();
    const existing = await createClient(api, { email: 'grace@example.com' });
    const project = await createProject(api, { name: 'Grace', client_email: 'grace@example.com' });
    const res = await open(key, {
      user: { external_id: 'g-7', email: 'grace@example.com' },
      mode: 'hybrid',
      project_id: project.id,
      permissions: ['publish', 'generate'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.session).toMatchObject({
      client_id: existing.id,
      project_id: project.id,
      permissions: ['generate', 'publish'],
      allowed_origins: [HOST, 'http://localhost:5173'],
    });
    expect(res.body.session.preview_url).toBe(
      `${api.ctx.config.publicUrl}/embed/projects/${project.id}/preview?session=${res.body.session.id}`,
    );
    expect((await api.get(`/api/v1/clients/${existing.id}`)).body.client.external_id).toBe('g-7');
    // Another external id for that email is a conflict, not a silent relink.
    const clash = await open(key, {
      user: { external_id: 'other', email: 'grace@example.com' },
      mode: 'full',
    });
    expect([clash.status, clash.body.error]).toEqual([409, expect.stringMatching(/another external_id/)]);

    const plan = await createPlan(api, 2);
    await api.patch(`/api/v1/plans/${plan.id}`, { is_default: true });
    const fresh = await open(key, { user: { email: 'new@example.com' }, mode: 'full' });
    const client = (await api.get(`/api/v1/clients/${fresh.body.session.client_id}`)).body.client;
    expect(client).toMatchObject({ plan_id: plan.id, status: 'active', external_id: null });
  });

  it('refuses every wrong field by name', async () => {
    const key = await embedKey();
    const other = await createClient(api);
    const theirs = await createProject(api, { name: 'Theirs', client_email: other.email });
    const user = { external_id: 'u-2', email: 'u2@example.com' };
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ mode: 'full' }, 400, /user/],
      [{ user, mode: 'sideways' }, 400, /mode/],
      [{ user }, 400, /mode/],
      [{ user: {}, mode: 'full' }, 400, /external_id, email or both/],
      [{ user: { external_id: 'nobody' }, mode: 'full' }, 400, /user.email/],
      [{ user: { email: 'not an email' }, mode: 'full' }, 400, /email/],
      [{ user: { ...user, age: 3 }, mode: 'full' }, 400, /age/],
      [{ user, mode: 'full', permissions: ['generate', 'admin'] }, 400, /permissions/],
      [{ user, mode: 'full', ttl_seconds: 59 }, 400, /ttl_seconds/],
      [{ user, mode: 'full', ttl_seconds: 3601 }, 400, /ttl_seconds/],
      [{ user, mode: 'full', locale: 'english please' }, 400, /locale/],
      [{ user, mode: 'full', theme: { accent: 'red' } }, 400, /accent/],
      [{ user, mode: 'full', allowed_origins: ['https://evil.example'] }, 400, /not one of/],
      [{ user, mode: 'full', allowed_origins: [`${HOST}/path`] }, 400, /origin only/],
      [{ user, mode: 'full', allowed_origins: ['http://app.host.example'] }, 400, /https/],
      [{ user, mode: 'full', allowed_origins: [] }, 400, /at least one/],
      [{ user, mode: 'hybrid' }, 400, /project_id/],
      [{ user, mode: 'full', project_id: 'nope' }, 400, /project_id/],
      [{ user, mode: 'full', project_id: OTHER_UUID }, 404, /Project/],
      [{ user, mode: 'full', project_id: theirs.id }, 404, /Project/],
      [{ user, mode: 'full', colour: 'red' }, 400, /colour/],
      [{ user: { email: 'a\u0000b@example.com' }, mode: 'full' }, 400, /email/],
      [{ user: { ...user, name: 'a\u0000b' }, mode: 'full' }, 400, /user.name.*NUL/],
    ];
    for (const [body, status, message] of cases) {
      const res = await open(key, body);
      expect([JSON.stringify(body).slice(0, 90), res.status, res.body.error]).toEqual([
        JSON.stringify(body).slice(0, 90),
        status,
        expect.stringMatching(message),
      ]);
    }
    // Nothing was half-written: no session, and no client for the refused users.
    const sessions = api.ctx.database.db.selectFrom('embed_sessions').selectAll();
    expect(await sessions.where('org_id', '=', api.org.id).execute()).toHaveLength(0);
    const emails = (await api.get('/api/v1/clients')).body.clients.map((c: { email: string }) => c.email);
    expect(emails).not.toContain('u2@example.com');
  });

  it('needs an embed key, which can do nothing else; a suspended client gets 403', async () => {
    const key = await embedKey();
    const body = { user: { email: 'sam@example.com' }, mode: 'full' };
    expect((await open(api.key, body)).status).toBe(403);
    expect((await api.post('/api/embed/session', body, { key: null })).status).toBe(401);
    expect((await api.get('/api/v1/projects', { key })).status).toBe(403);
    const refused = await api.post('/api/v1/clients', { email: 'x@example.com' }, { key });
    expect([refused.status, refused.body.error]).toEqual([403, expect.stringMatching(/embed key/)]);
    const headers = (await open(key, body)).headers;
    expect(headers['ratelimit-policy']).toMatch(/^"v1";q=\d+;w=60$/);
    expect(headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    const mixed = api.ctx.services.orgs.createKey(api.org.id, ['read', 'embed'], 'mixed');
    await expect(mixed).rejects.toThrow(/embed permission alone/);

    const client = await createClient(api, { email: 'sus@example.com' });
    await api.patch(`/api/v1/clients/${client.id}`, { status: 'suspended' });
    const res = await open(key, { user: { email: 'sus@example.com' }, mode: 'full' });
    expect([res.status, res.body.error]).toEqual([403, expect.stringMatching(/suspended/)]);
  });

  it('refuses a session when the organization has no embed origins yet', async () => {
    const key = (await api.ctx.services.orgs.createKey(api.org.id, ['embed'], 'embed')).key;
    const res = await open(key, { user: { email: 'a@example.com' }, mode: 'full' });
    expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(/no embed origins yet/)]);
  });
});

describe('a headless session', () => {
  async function headless(permissions?: string[]) {
    const key = await embedKey();
    const res = await open(key, {
      user: { external_id: 'h-1', email: 'h1@example.com' },
      mode: 'headless',
      ...(permissions ? { permissions } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { key, session: res.body.session };
  }

  it("is a bearer on its client's projects only; every other route is 403", async () => {
    const { session } = await headless();
    const token = session.token;
    const mine = await createProject(api, { name: 'Mine', client_email: 'h1@example.com' });
    const other = await createClient(api);
    const theirs = await createProject(api, { name: 'Theirs', client_email: other.email });

    const list = await api.get('/api/v1/projects', { key: token });
    expect(list.status).toBe(200);
    expect(list.body.projects.map((p: { id: string }) => p.id)).toEqual([mine.id]);
    expect((await api.get(`/api/v1/projects/${mine.id}`, { key: token })).status).toBe(200);
    expect((await api.get(`/api/v1/projects/${theirs.id}`, { key: token })).status).toBe(404);
    expect((await api.get(`/api/v1/projects/${theirs.id}/files`, { key: token })).status).toBe(404);
    for (const path of [
      '/api/v1/clients',
      `/api/v1/clients/${session.client_id}`,
      '/api/v1/plans',
      '/api/v1/webhooks',
    ]) {
      const res = await api.get(path, { key: token });
      expect([path, res.status, res.body.error]).toEqual([
        path,
        403,
        expect.stringMatching(/projects routes only/),
      ]);
    }
    expect((await open(token, { user: { email: 'z@example.com' }, mode: 'full' })).status).toBe(403);

    // Creates its own client's projects; another client's email is not found.
    const created = await api.post(
      '/api/v1/projects',
      { name: 'New', client_email: 'h1@example.com' },
      { key: token },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.project.client_id ?? created.body.project.org_client_id ?? session.client_id).toBe(
      session.client_id,
    );
    const foreign = await api.post(
      '/api/v1/projects',
      { name: 'X', client_email: other.email },
      { key: token },
    );
    expect(foreign.status).toBe(404);

    // Edits and generates (the default permissions); publishing, domains and deleting are refused.
    const put = await api.put(
      `/api/v1/projects/${mine.id}/files/index.html`,
      { content: '<h1>Hi</h1>' },
      { key: token },
    );
    expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
    const publish = await api.post(`/api/v1/projects/${mine.id}/publish`, undefined, { key: token });
    expect([publish.status, publish.body.error]).toEqual([
      403,
      expect.stringMatching(/permission 'publish'/),
    ]);
    const domain = await api.post(
      `/api/v1/projects/${mine.id}/domains`,
      { domain: 'www.h1.example' },
      { key: token },
    );
    expect([domain.status, domain.body.error]).toEqual([403, expect.stringMatching(/permission 'domains'/)]);
    expect((await api.delete(`/api/v1/projects/${mine.id}`, { key: token })).status).toBe(403);
    expect((await api.get(`/api/v1/projects/${mine.id}`)).status).toBe(200);
  });

  it('publishes when given publish, and may not edit without edit', async () => {
    const { session } = await headless(['publish']);
    const mine = await createProject(api, { name: 'Mine', client_email: 'h1@example.com' });
    await api.put(`/api/v1/projects/${mine.id}/files/index.html`, {
      content: '<!doctype html><title>x</title>',
    });
    const token = session.token;
    const put = await api.put(`/api/v1/projects/${mine.id}/files/a.html`, { content: 'x' }, { key: token });
    expect([put.status, put.body.error]).toEqual([403, expect.stringMatching(/permission 'edit'/)]);
    const note = await api.delete(`/api/v1/projects/${mine.id}/submissions/${OTHER_UUID}`, { key: token });
    expect([note.status, note.body.error]).toEqual([403, expect.stringMatching(/permission 'edit'/)]);
    const gen = await api.post(
      `/api/v1/projects/${mine.id}/generate`,
      { prompt: 'A bakery' },
      { key: token },
    );
    expect([gen.status, gen.body.error]).toEqual([403, expect.stringMatching(/permission 'generate'/)]);
    const publish = await api.post(`/api/v1/projects/${mine.id}/publish`, undefined, { key: token });
    expect(publish.status, JSON.stringify(publish.body)).toBe(200);
  });

  it('stops when revoked, when its client is suspended, and when it expires', async () => {
    const { key, session } = await headless();
    expect((await api.get('/api/v1/projects', { key: session.token })).status).toBe(200);
    const revoked = await api.delete(`/api/embed/session/${session.id}`, { key });
    expect([revoked.status, revoked.body]).toEqual([200, { deleted: true, id: session.id }]);
    const after = await api.get('/api/v1/projects', { key: session.token });
    expect([after.status, after.body.error]).toEqual([401, expect.stringMatching(/embed session token/)]);
    expect((await api.delete(`/api/embed/session/${OTHER_UUID}`, { key })).status).toBe(404);
    expect((await api.delete(`/api/embed/session/${session.id}`, { key: api.key })).status).toBe(403);

    const second = (await open(key, { user: { external_id: 'h-1' }, mode: 'headless' })).body.session;
    expect((await api.get('/api/v1/projects', { key: second.token })).status).toBe(200);
    await api.patch(`/api/v1/clients/${second.client_id}`, { status: 'suspended' });
    expect((await api.get('/api/v1/projects', { key: second.token })).status).toBe(401);
    await api.patch(`/api/v1/clients/${second.client_id}`, { status: 'active' });
    expect((await api.get('/api/v1/projects', { key: second.token })).status).toBe(401);

    const third = (await open(key, { user: { external_id: 'h-1' }, mode: 'headless' })).body.session;
    await api.ctx.database.db
      .updateTable('embed_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', third.id)
      .execute();
    expect((await api.get('/api/v1/projects', { key: third.token })).status).toBe(401);
  });

  it('opened for one project, sees and changes that one only, and creates none', async () => {
    const key = await embedKey();
    await createClient(api, { email: 'one@example.com' });
    const first = await createProject(api, { name: 'First', client_email: 'one@example.com' });
    const second = await createProject(api, { name: 'Second', client_email: 'one@example.com' });
    const opened = await open(key, {
      user: { email: 'one@example.com' },
      mode: 'headless',
      project_id: first.id,
    });
    const token = opened.body.session.token;
    const list = await api.get('/api/v1/projects', { key: token });
    expect([list.body.projects.map((p: { id: string }) => p.id), list.body.total]).toEqual([[first.id], 1]);
    expect((await api.get(`/api/v1/projects/${first.id}`, { key: token })).status).toBe(200);
    expect((await api.get(`/api/v1/projects/${second.id}`, { key: token })).status).toBe(404);
    const gen = await api.post(
      `/api/v1/projects/${second.id}/generate`,
      { prompt: 'A shop' },
      { key: token },
    );
    expect(gen.status).toBe(404);
    const created = await api.post(
      '/api/v1/projects',
      { name: 'Third', client_email: 'one@example.com' },
      { key: token },
    );
    expect([created.status, created.body.error]).toEqual([403, expect.stringMatching(/one project/)]);
  });

  it('has a rate-limit quota of its own, apart from its key and from other sessions', async () => {
    const { key, session } = await headless();
    const other = (
      await open(key, { user: { external_id: 'h-2', email: 'h2@example.com' }, mode: 'headless' })
    ).body.session;
    const remaining = async (token: string) =>
      Number((await api.get('/api/v1/projects', { key: token })).headers['x-ratelimit-remaining']);
    const first = await remaining(session.token);
    expect(await remaining(session.token)).toBe(first - 1);
    expect(await remaining(session.token)).toBe(first - 2);
    expect(await remaining(other.token)).toBe(first);
  });

  it("another organization's key cannot revoke it, and a full session's token is no bearer", async () => {
    const { session } = await headless();
    const other = await api.newOrg();
    const otherKey = (await api.ctx.services.orgs.createKey(other.org.id, ['embed'], 'e')).key;
    expect((await api.delete(`/api/embed/session/${session.id}`, { key: otherKey })).status).toBe(404);
    expect((await api.get('/api/v1/projects', { key: session.token })).status).toBe(200);
    const key = await embedKey();
    const full = (await open(key, { user: { external_id: 'h-1' }, mode: 'full' })).body.session;
    expect((await api.get('/api/v1/projects', { key: full.token })).status).toBe(401);
  });
});
