// The build link's pages through app.inject, for the three kinds of visitor: a client signed in
// (project and build at once, its plan's limits), an agency member (chooses the client), and a
// signed-out visitor (signs up as a new client of an organization that allows it, or signs in, and
// resumes with the prompt kept on the server); and every bad parameter as a clear page.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createTemplate } from '../helpers/fixtures.ts';
import { PageSession, visibleText } from '../helpers/page-session.ts';

const api = useTestApi({ GENERATION_WORKER: 'false' });
const LONG = `A bakery in Bristol called Luna. ${'Sourdough, cakes and coffee. '.repeat(700)}`.slice(0, 20_000);

const generationsOf = async (projectId: string) => (await api.get(`/api/v1/projects/${projectId}/generations`)).body.generations;
const projectIdOf = (location: string | undefined) => /^\/app\/projects\/([0-9a-f-]{36})$/.exec(location ?? '')?.[1];

async function clientWithPlan(fields: Record<string, unknown> = {}) {
  const plan = (await api.post('/api/v1/plans', { name: `Plan ${Math.random()}`, price: 10, max_sites: 3, ...fields })).body.plan;
  const client = await createClient(api, { plan_id: plan.id });
  return { plan, client, session: await PageSession.signInClient(api.app, api.ctx, api.org.id, client.id) };
}

describe('a signed-in client', () => {
  it('gets a project seeded with the prompt, its build started, and the builder', async () => {
    const { client, session } = await clientWithPlan();
    const page = await session.get(`/build?prompt=${encodeURIComponent('A bakery in Bristol with a menu')}&org=${api.org.id}`);
    expect(page.status).toBe(303);
    const projectId = projectIdOf(page.location)!;
    const project = (await api.get(`/api/v1/projects/${projectId}`)).body.project;
    expect(project).toMatchObject({ org_client_id: client.id, name: 'A bakery in Bristol with a menu' });
    const [generation] = await generationsOf(projectId);
    expect(generation).toMatchObject({ prompt: 'A bakery in Bristol with a menu', status: 'queued', model: 'builtin' });
  });

  it('meets its plan’s max_sites and daily AI limit as a clear page, and nothing is half-made', async () => {
    const full = await clientWithPlan({ max_sites: 1 });
    await api.post('/api/v1/projects', { client_email: full.client.email, name: 'Existing' });
    const refused = await full.session.get('/build?prompt=Another+site');
    expect(refused.status).toBe(403);
    expect(visibleText(refused.body)).toMatch(/max_sites/);

    const spent = await clientWithPlan({ max_ai_messages_daily: 1 });
    expect((await spent.session.get('/build?prompt=First')).status).toBe(303);
    const before = (await api.get(`/api/v1/projects?client_id=${spent.client.id}`)).body.total;
    const limited = await spent.session.get('/build?prompt=Second');
    expect(limited.status).toBe(429);
    expect(visibleText(limited.body)).toMatch(/Daily AI message limit reached/);
    expect((await api.get(`/api/v1/projects?client_id=${spent.client.id}`)).body.total).toBe(before);
  });

  it('answers every bad parameter with a clear page', async () => {
    const { session } = await clientWithPlan();
    const hidden = await createTemplate(api, { is_public: false });
    const other = await api.newOrg();
    const foreign = await createTemplate(api, { is_public: true }, other.key);
    const cases: [string, number, RegExp][] = [
      ['/build?prompt=x&template=00000000-0000-4000-8000-000000000000', 404, /Template/],
      [`/build?prompt=x&template=${hidden.id}`, 404, /public template/],
      [`/build?prompt=x&template=${foreign.id}`, 404, /Template/],
      ['/build?prompt=x&template=not-an-id', 404, /Template/],
      ['/build?prompt=x&model=gpt-9', 400, /Unknown model 'gpt-9'/],
      ['/build?prompt=x&org=00000000-0000-4000-8000-000000000000', 404, /Organization/],
      ['/build?prompt=x&org=nope', 404, /Organization/],
      [`/build?prompt=x&org=${other.org.id}`, 404, /Organization/],
      [`/build?prompt=${'x'.repeat(50_001)}`, 400, /longer than 50,000/],
      ['/build?link=nonsense-token-123456', 404, /expired/],
      ['/build?pending=%00', 404, /expired/],
    ];
    for (const [url, status, message] of cases) {
      const page = await session.get(url);
      expect([url, page.status]).toEqual([url, status]);
      expect(visibleText(page.body)).toMatch(message);
    }
    // No prompt at all: the page asks for one, and its form posts it (a long prompt fits no URL).
    const ask = await session.get(`/build?org=${api.org.id}`);
    expect(ask.status).toBe(200);
    expect(ask.body).toContain('<form method="post" action="/build"');
    const posted = await session.post('/build', { prompt: LONG, org: api.org.id });
    expect(posted.status).toBe(303);
    expect((await generationsOf(projectIdOf(posted.location)!))[0].prompt).toBe(LONG.trim());
  });
});

describe('an agency member', () => {
  it('keeps the prompt and chooses the client (or a new one), then the same', async () => {
    const member = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    const existing = await createClient(api);
    const page = await member.get(`/build?prompt=${encodeURIComponent(LONG)}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(existing.email);
    const pending = /name="pending" value="([^"]+)"/.exec(page.body)![1]!;
    expect(page.body).not.toContain(LONG); // kept on the server, not in the page's form
    const bad = await member.post('/build/start', { pending, client_id: 'new', new_email: 'not an email' });
    expect(bad.status).toBe(400);
    const started = await member.post('/build/start', { pending, client_id: 'new', new_email: 'new@bakery.test', new_name: 'New Bakery' });
    expect(started.status).toBe(303);
    const projectId = projectIdOf(started.location)!;
    const [generation] = await generationsOf(projectId);
    expect(generation.prompt).toBe(LONG.trim());
    const client = (await api.get('/api/v1/clients')).body.clients.find((c: any) => c.email === 'new@bakery.test');
    expect((await api.get(`/api/v1/projects/${projectId}`)).body.project.org_client_id).toBe(client.id);
    // The kept visit is used once.
    expect((await member.post('/build/start', { pending, client_id: existing.id })).status).toBe(404);
  });
});

describe('a signed-out visitor', () => {
  it('signs up as a new active client on the default plan when the organization allows it, and resumes with the prompt intact', async () => {
    const created = await api.post('/api/v1/plans', { name: 'Starter', price: 0, max_sites: 2 });
    const plan = (await api.request('PATCH', `/api/v1/plans/${created.body.plan.id}`, { is_default: true })).body.plan;
    expect(plan.is_default).toBe(true);
    const visitor = PageSession.anonymous(api.app);
    const off = await visitor.get(`/build?prompt=${encodeURIComponent(LONG)}&org=${api.org.id}`);
    expect(off.status).toBe(200);
    expect(off.body).not.toContain('action="/build/sign-up"');
    const offPending = /pending%3D([A-Za-z0-9_-]+)/.exec(off.body)![1]!;
    expect((await visitor.post('/build/sign-up', { pending: offPending, email: 'x@visitor.test', password: 'a long enough password' })).status).toBe(403);

    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    expect((await owner.post('/settings/build-link/sign-ups', { sign_ups: 'on' })).status).toBe(303);
    const page = await visitor.get(`/build?prompt=${encodeURIComponent(LONG)}&org=${api.org.id}`);
    expect(page.body).toContain('action="/build/sign-up"');
    const pending = /name="pending" value="([^"]+)"/.exec(page.body)![1]!;
    const weak = await visitor.post('/build/sign-up', { pending, email: 'jane@visitor.test', password: 'short' });
    expect(weak.status).toBe(400);
    const done = await visitor.post('/build/sign-up', { pending, email: 'jane@visitor.test', password: 'a long enough password', name: 'Jane' });
    expect(done.status).toBe(303);
    const projectId = projectIdOf(done.location)!;
    expect((await generationsOf(projectId))[0].prompt).toBe(LONG.trim());
    const client = (await api.get('/api/v1/clients')).body.clients.find((c: any) => c.email === 'jane@visitor.test');
    expect(client).toMatchObject({ status: 'active', plan_id: plan.id, name: 'Jane' });
    const events = await api.ctx.database.db.selectFrom('events').select(['type', 'payload']).where('org_id', '=', api.org.id).where('type', '=', 'client.created').execute();
    expect(events.some((e) => e.payload.includes('jane@visitor.test') && e.payload.includes('"status":"active"'))).toBe(true);
    // Signed in now: the builder opens.
    expect((await visitor.get(done.location!)).status).toBe(200);
  });

  it('signs in and resumes exactly where it was', async () => {
    const { client } = await clientWithPlan();
    const visitor = PageSession.anonymous(api.app);
    const page = await visitor.get(`/build?prompt=${encodeURIComponent('A yoga studio in Brighton')}&org=${api.org.id}`);
    const next = decodeURIComponent(/href="\/sign-in\?next=([^"]+)"/.exec(page.body)![1]!);
    expect(next).toMatch(/^\/build\?pending=/);
    // (The client's account exists already: clientWithPlan signed it in elsewhere.)
    expect((await visitor.get(`/sign-in?next=${encodeURIComponent(next)}`)).status).toBe(200);
    const signIn = await visitor.post('/sign-in', { email: client.email, password: 'a long enough password', next });
    expect(signIn.location).toBe(next);
    const resumed = await visitor.get(next);
    expect(resumed.status).toBe(303);
    expect((await generationsOf(projectIdOf(resumed.location)!))[0].prompt).toBe('A yoga studio in Brighton');
  });
});

describe('the button generator', () => {
  it('gives the organization’s link with a preset prompt or template, and an escaped button snippet', async () => {
    const member = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    const template = await createTemplate(api, { is_public: true });
    const page = await member.get(`/settings/build-link?prompt=${encodeURIComponent('A café <b>now</b>')}&template=${template.id}`);
    expect(page.status).toBe(200);
    const url = /id="build-url" readonly value="([^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
    const link = new URL(url);
    expect(link.pathname).toBe('/build');
    expect(link.searchParams.get('prompt')).toBe('A café <b>now</b>');
    expect(link.searchParams.get('org')).toBe(api.org.id);
    expect(link.searchParams.get('template')).toBe(template.id);
    expect(page.body).toContain('&lt;a href=');
    expect(page.body).not.toContain('<b>now</b>');
    // Members see the sign-up setting; only owners and admins change it.
    expect((await member.post('/settings/build-link/sign-ups', { sign_ups: 'on' })).status).toBe(403);
  });
});
