// The build link's pages through app.inject, for the three kinds of visitor: a client signed in
// (confirms, then project and build; its plan's limits in its own words), an agency member
// (chooses the client), and a signed-out visitor (signs in on the page, or signs up as a new
// client of an organization that allows it, confirming the email first); every bad parameter as
// a clear page before anyone signs in; and nothing stored or built by merely opening a link.
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createTemplate } from '../helpers/fixtures.ts';
import { PageSession, visibleText } from '../helpers/page-session.ts';
import { SmtpSink } from '../helpers/smtp.ts';

const smtp = await SmtpSink.start();
afterAll(() => smtp.close());
const api = useTestApi({ GENERATION_WORKER: 'false', SMTP_URL: smtp.url });
const LONG = `A bakery in Bristol called Luna. ${'Sourdough, cakes and coffee. '.repeat(700)}`.slice(
  0,
  20_000,
);

const generationsOf = async (projectId: string) =>
  (await api.get(`/api/v1/projects/${projectId}/generations`)).body.generations;
const projectIdOf = (location: string | undefined) =>
  /^\/app\/projects\/([0-9a-f-]{36})$/.exec(location ?? '')?.[1];
const hiddenFields = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="(link|prompt|model|template|org)" value="([^"]*)">/g)].map(
      (m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')],
    ),
  );
const stored = async () => {
  const { db } = api.ctx.database;
  const count = async (table: 'build_requests' | 'signups' | 'projects' | 'generations') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    requests: await count('build_requests'),
    signups: await count('signups'),
    projects: await count('projects'),
    generations: await count('generations'),
  };
};

async function clientWithPlan(fields: Record<string, unknown> = {}) {
  const plan = (
    await api.post('/api/v1/plans', { name: `Plan ${Math.random()}`, price: 10, max_sites: 3, ...fields })
  ).body.plan;
  const client = await createClient(api, { plan_id: plan.id });
  return { plan, client, session: await PageSession.signInClient(api.app, api.ctx, api.org.id, client.id) };
}

async function defaultPlanAndSignUps() {
  const created = await api.post('/api/v1/plans', {
    name: `Starter ${Math.random()}`,
    price: 0,
    max_sites: 2,
  });
  const plan = (await api.request('PATCH', `/api/v1/plans/${created.body.plan.id}`, { is_default: true }))
    .body.plan;
  const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
  expect((await owner.post('/settings/build-link/sign-ups', { sign_ups: 'on' })).status).toBe(303);
  return plan;
}

describe('a signed-in client', () => {
  it('is asked to confirm (opening the link builds nothing); its confirmation builds, named after what the site is for', async () => {
    const { client, session } = await clientWithPlan();
    const before = await stored();
    const page = await session.get(
      `/build?prompt=${encodeURIComponent('A website for Luna Bakery in Bristol, with a menu')}&org=${api.org.id}`,
    );
    expect(page.status).toBe(200);
    expect(visibleText(page.body)).toContain('Build this website?');
    expect(await stored()).toEqual(before);
    const confirmed = await session.post('/build', hiddenFields(page.body));
    expect(confirmed.status).toBe(303);
    const projectId = projectIdOf(confirmed.location)!;
    const project = (await api.get(`/api/v1/projects/${projectId}`)).body.project;
    expect(project).toMatchObject({ org_client_id: client.id, name: 'Luna Bakery in Bristol' });
    const [generation] = await generationsOf(projectId);
    expect(generation).toMatchObject({
      prompt: 'A website for Luna Bakery in Bristol, with a menu',
      status: 'queued',
      model: 'builtin',
    });
  });

  it('meets its plan’s max_sites and daily AI limit as a page in its own words, and nothing is half-made', async () => {
    const full = await clientWithPlan({ max_sites: 1 });
    await api.post('/api/v1/projects', { client_email: full.client.email, name: 'Existing' });
    const refused = await full.session.post('/build', { prompt: 'Another site' });
    expect(refused.status).toBe(403);
    expect(visibleText(refused.body)).toContain(
      'The plan allows 1 website, and there is already 1. Ask Agency',
    );
    expect(visibleText(refused.body)).not.toMatch(/max_sites|project\(s\)/);

    const spent = await clientWithPlan({ max_ai_messages_daily: 1 });
    expect((await spent.session.post('/build', { prompt: 'First' })).status).toBe(303);
    const before = (await api.get(`/api/v1/projects?client_id=${spent.client.id}`)).body.total;
    const limited = await spent.session.post('/build', { prompt: 'Second' });
    expect(limited.status).toBe(429);
    expect(visibleText(limited.body)).toMatch(/The 1 AI messages a day of the plan are used up/);
    expect((await api.get(`/api/v1/projects?client_id=${spent.client.id}`)).body.total).toBe(before);
  });

  it('answers every bad parameter with a clear page', async () => {
    const { session } = await clientWithPlan();
    const hidden = await createTemplate(api, { is_public: false });
    const other = await api.newOrg();
    const foreign = await createTemplate(api, { is_public: true }, other.key);
    const cases: [string, number, RegExp][] = [
      [
        '/build?prompt=x&template=00000000-0000-4000-8000-000000000000',
        404,
        /design this build link starts from no longer exists/,
      ],
      [`/build?prompt=x&template=${hidden.id}`, 404, /no longer exists/],
      [`/build?prompt=x&template=${foreign.id}`, 404, /no longer exists/],
      ['/build?prompt=x&template=not-an-id', 404, /no longer exists/],
      ['/build?prompt=x&model=gpt-9', 400, /AI model this service does not have \('gpt-9'\)/],
      [
        '/build?prompt=x&org=00000000-0000-4000-8000-000000000000',
        404,
        /agency this build link names does not exist/,
      ],
      ['/build?prompt=x&org=nope', 404, /does not exist/],
      [`/build?prompt=x&org=${other.org.id}`, 404, /belongs to another agency/],
      [`/build?prompt=${'x'.repeat(50_001)}`, 400, /longer than 50,000/],
      ['/build?link=nonsense-token-123456', 404, /expired/],
    ];
    for (const [url, status, message] of cases) {
      const page = await session.get(url);
      expect([url, page.status]).toEqual([url, status]);
      expect(visibleText(page.body)).toMatch(message);
    }
    // No prompt at all: the page asks for one, and its form (a long prompt fits no URL) builds.
    const ask = await session.get(`/build?org=${api.org.id}`);
    expect(ask.status).toBe(200);
    expect(ask.body).toContain('<form method="post" action="/build"');
    const posted = await session.post('/build', { prompt: LONG, org: api.org.id });
    expect(posted.status).toBe(303);
    expect((await generationsOf(projectIdOf(posted.location)!))[0].prompt).toBe(LONG.trim());
  });
});

describe('an agency member', () => {
  it('chooses the client (or a new one), the prompt carried in the form, nothing kept on the server', async () => {
    const member = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    const existing = await createClient(api);
    const before = await stored();
    const page = await member.get(`/build?prompt=${encodeURIComponent(LONG)}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(existing.email);
    expect(await stored()).toEqual(before);
    const fields = hiddenFields(page.body);
    expect(fields.prompt).toBe(LONG.trim());
    const bad = await member.post('/build/start', { ...fields, client_id: 'new', new_email: 'not an email' });
    expect(bad.status).toBe(400);
    const started = await member.post('/build/start', {
      ...fields,
      client_id: 'new',
      new_email: 'new@bakery.test',
      new_name: 'New Bakery',
    });
    expect(started.status).toBe(303);
    const projectId = projectIdOf(started.location)!;
    expect((await generationsOf(projectId))[0].prompt).toBe(LONG.trim());
    const client = (await api.get('/api/v1/clients')).body.clients.find(
      (c: any) => c.email === 'new@bakery.test',
    );
    expect((await api.get(`/api/v1/projects/${projectId}`)).body.project.org_client_id).toBe(client.id);
  });
});

describe('a signed-out visitor', () => {
  it('stores nothing by looking, and hears of a link that cannot work before signing in', async () => {
    const visitor = PageSession.anonymous(api.app);
    const before = await stored();
    for (let i = 0; i < 20; i++)
      expect((await visitor.get(`/build?prompt=${encodeURIComponent(LONG)}&org=${api.org.id}`)).status).toBe(
        200,
      );
    expect(await stored()).toEqual(before);
    const model = await visitor.get(`/build?prompt=x&model=%3Cb%3Egpt%3C%2Fb%3E&org=${api.org.id}`);
    expect(model.status).toBe(400);
    expect(model.body).toContain('(&#39;&lt;b&gt;gpt&lt;/b&gt;&#39;)');
    expect(model.body).not.toContain('action="/build/sign-in"');
    expect((await visitor.get('/build?prompt=x&model=gpt-9')).status).toBe(400);
  });

  it('signs up only where allowed, with a default plan, and becomes a client once the mailed link is followed', async () => {
    const visitor = PageSession.anonymous(api.app);
    const off = await visitor.get(`/build?prompt=${encodeURIComponent(LONG)}&org=${api.org.id}`);
    expect(off.body).not.toContain('action="/build/sign-up"');
    expect(
      (
        await visitor.post('/build/sign-up', {
          ...hiddenFields(off.body),
          email: 'x@visitor.test',
          password: 'a long enough password',
        })
      ).status,
    ).toBe(403);

    // Sign-ups cannot be switched on without a default plan: such clients would have no limits.
    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    await owner.get('/settings/build-link');
    const noPlan = await owner.post('/settings/build-link/sign-ups', { sign_ups: 'on' });
    expect(noPlan.status).toBe(400);
    expect(visibleText(noPlan.body)).toContain('Choose an active default plan first');
    const plan = await defaultPlanAndSignUps();

    const page = await visitor.get(`/build?prompt=${encodeURIComponent(LONG)}&org=${api.org.id}`);
    expect(page.body).toContain('action="/build/sign-up"');
    const fields = hiddenFields(page.body);
    expect(
      (await visitor.post('/build/sign-up', { ...fields, email: 'jane@visitor.test', password: 'short' }))
        .status,
    ).toBe(400);
    const sent = await visitor.post('/build/sign-up', {
      ...fields,
      email: 'jane@visitor.test',
      password: 'a long enough password',
      name: 'Jane',
    });
    expect(sent.status).toBe(200);
    expect(visibleText(sent.body)).toContain('We sent a link to jane@visitor.test');
    // Nothing is an account or a client before the email is confirmed.
    expect(await api.ctx.services.accounts.findUserByEmail('jane@visitor.test')).toBeUndefined();
    expect(
      (await api.get('/api/v1/clients')).body.clients.some((c: any) => c.email === 'jane@visitor.test'),
    ).toBe(false);

    const [mail] = await smtp.waitFor('jane@visitor.test');
    const link = /http:\/\/sitewright\.test(\/sign-up\/confirm\/[A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const confirm = await visitor.get(link);
    expect(confirm.status).toBe(200);
    expect(visibleText(confirm.body)).toContain('Build your website with Agency');
    expect((await visitor.post(link, { password: 'not the one' })).status).toBe(400);
    const done = await visitor.post(link, { password: 'a long enough password' });
    expect(done.status).toBe(303);
    const projectId = projectIdOf(done.location)!;
    expect((await generationsOf(projectId))[0].prompt).toBe(LONG.trim());
    const client = (await api.get('/api/v1/clients')).body.clients.find(
      (c: any) => c.email === 'jane@visitor.test',
    );
    expect(client).toMatchObject({ status: 'active', plan_id: plan.id, name: 'Jane' });
    const events = await api.ctx.database.db
      .selectFrom('events')
      .select(['type', 'payload'])
      .where('org_id', '=', api.org.id)
      .where('type', '=', 'client.created')
      .execute();
    expect(
      events.some((e) => e.payload.includes('jane@visitor.test') && e.payload.includes('"status":"active"')),
    ).toBe(true);
    // Signed in now: the builder opens; the link works once.
    expect((await visitor.get(done.location!)).status).toBe(200);
    expect((await PageSession.anonymous(api.app).get(link)).status).toBe(410);
    // An email that has an account is told to sign in, before anything is hashed or kept.
    const other = PageSession.anonymous(api.app);
    await other.get(`/build?prompt=x&org=${api.org.id}`);
    const again = await other.post('/build/sign-up', {
      ...fields,
      email: 'JANE@visitor.test',
      password: 'a long enough password',
    });
    expect(again.status).toBe(400);
    expect(visibleText(again.body)).toContain('already exists: sign in instead');
  });

  it('signs in on the page and the build starts; a wrong password keeps the request', async () => {
    const { client } = await clientWithPlan();
    const visitor = PageSession.anonymous(api.app);
    const page = await visitor.get(
      `/build?prompt=${encodeURIComponent('A yoga studio in Brighton')}&org=${api.org.id}`,
    );
    const fields = hiddenFields(page.body);
    const wrong = await visitor.post('/build/sign-in', {
      ...fields,
      email: client.email,
      password: 'not the password',
    });
    expect(wrong.status).toBe(400);
    expect(hiddenFields(wrong.body)).toEqual(fields);
    const signedIn = await visitor.post('/build/sign-in', {
      ...hiddenFields(wrong.body),
      email: client.email,
      password: 'a long enough password',
    });
    expect(signedIn.status).toBe(303);
    expect((await generationsOf(projectIdOf(signedIn.location)!))[0].prompt).toBe(
      'A yoga studio in Brighton',
    );
  });
});

describe('the button generator', () => {
  it('makes the link only when asked, with a preset prompt or template, and an escaped button snippet', async () => {
    const member = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    const template = await createTemplate(api, { is_public: true });
    const before = await stored();
    expect((await member.get(`/settings/build-link?prompt=${encodeURIComponent(LONG)}`)).status).toBe(200);
    expect(await stored()).toEqual(before);
    const page = await member.post('/settings/build-link', {
      prompt: 'A café <b>now</b>',
      template: template.id,
    });
    expect(page.status).toBe(200);
    const url = /id="build-url" readonly value="([^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
    const link = new URL(url);
    expect(link.pathname).toBe('/build');
    expect(link.searchParams.get('prompt')).toBe('A café <b>now</b>');
    expect(link.searchParams.get('org')).toBe(api.org.id);
    expect(link.searchParams.get('template')).toBe(template.id);
    expect(page.body).toContain('&lt;a href=');
    expect(page.body).not.toContain('<b>now</b>');
    expect(await stored()).toEqual(before);
    // A prompt too long for a URL is kept on the server, once, when the form is posted.
    const long = await member.post('/settings/build-link', { prompt: LONG });
    expect(/id="build-url" readonly value="[^"]+\/build\?link=/.test(long.body)).toBe(true);
    expect((await stored()).requests).toBe(before.requests + 1);
    // Members see the sign-up setting; only owners and admins change it.
    expect((await member.post('/settings/build-link/sign-ups', { sign_ups: 'on' })).status).toBe(403);
  });
});
