// Accounts and their security through the pages: set-up once, sign-in with a rotated session id,
// cookie flags, CSRF, throttling, security headers, removal and password resets taking effect at
// once, invitations of members and clients through a real SMTP server on loopback.
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.ts';
import { buildServer } from '../../src/main.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig, useTestApi } from '../helpers/app.ts';
import { PageSession } from '../helpers/page-session.ts';
import { SmtpSink } from '../helpers/smtp.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const smtp = await SmtpSink.start();
const api = useTestApi({ SMTP_URL: smtp.url });
afterAll(() => smtp.close());
const PASSWORD = 'a long enough password';

/** A browser without a session: a cookie jar and the CSRF token of the last page it saw. */
class Browser {
  jar = new Map<string, string>();
  csrf = '';
  constructor(private readonly app = api.app) {}
  private keep(set: unknown) {
    for (const line of set === undefined ? [] : Array.isArray(set) ? set : [String(set)]) {
      const [pair] = String(line).split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (!value || /max-age=0|expires=thu, 01 jan 1970/i.test(String(line))) this.jar.delete(name!);
      else this.jar.set(name!, value);
    }
  }
  get cookie() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async get(url: string, headers: Record<string, string> = {}) {
    const res = await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookie, ...headers } });
    this.keep(res.headers['set-cookie']);
    this.csrf = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? this.csrf;
    return res;
  }
  async post(url: string, fields: Record<string, string>, opts: { csrf?: string | null; ip?: string } = {}) {
    const form = new URLSearchParams(fields);
    const token = opts.csrf === undefined ? this.csrf : opts.csrf;
    if (token !== null) form.set('_csrf', token);
    const res = await this.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
      ...(opts.ip ? { remoteAddress: opts.ip } : {}),
    });
    this.keep(res.headers['set-cookie']);
    return res;
  }
}

let n = 0;
async function member(role: 'owner' | 'admin' | 'member' = 'owner') {
  const email = `person-${process.pid}-${++n}@example.com`;
  const user = await api.ctx.services.accounts.createMember({
    email,
    password: PASSWORD,
    name: null,
    orgId: api.org.id,
    role,
  });
  return { email, user };
}
async function signedIn(email: string, ip = '10.0.0.1') {
  const browser = new Browser();
  await browser.get('/sign-in');
  const res = await browser.post('/sign-in', { email, password: PASSWORD, next: '/clients' }, { ip });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
  return browser;
}

describe('sign-in and sessions', () => {
  it('rotates the session id at sign-in, with HttpOnly, SameSite=Lax, host-only cookies', async () => {
    const { email } = await member();
    const browser = new Browser();
    browser.jar.set('sitewright_session', 'planted-by-someone-else');
    await browser.get('/sign-in');
    const res = await browser.post('/sign-in', { email, password: PASSWORD, next: '/clients' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/clients');
    const cookie = [res.headers['set-cookie']]
      .flat()
      .find((c) => String(c).startsWith('sitewright_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(browser.jar.get('sitewright_session')).not.toBe('planted-by-someone-else');
    expect((await browser.get('/clients')).statusCode).toBe(200);
  });

  it('refuses a wrong password and keeps `next` on this site only', async () => {
    const { email } = await member();
    const browser = new Browser();
    await browser.get('/sign-in');
    const wrong = await browser.post('/sign-in', { email, password: 'not the password' }, { ip: '10.1.0.1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Wrong email or password');
    const res = await browser.post(
      '/sign-in',
      { email, password: PASSWORD, next: '//evil.example/x' },
      { ip: '10.1.0.1' },
    );
    expect(res.headers.location).toBe('/');
  });

  it('slows down failed sign-ins per account (429 page, growing delays) without locking other accounts', async () => {
    const { email } = await member();
    const other = await member();
    const browser = new Browser();
    await browser.get('/sign-in');
    // Five free failures, then one attempt per growing delay (1 s, 2 s, ...).
    for (let i = 0; i < 6; i++)
      expect(
        (await browser.post('/sign-in', { email, password: 'wrong password!' }, { ip: `10.2.0.${i}` }))
          .statusCode,
      ).toBe(400);
    const blocked = await browser.post('/sign-in', { email, password: PASSWORD }, { ip: '10.2.1.1' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    expect(blocked.body).toContain('Too many failed sign-ins');
    expect(
      (await browser.post('/sign-in', { email: other.email, password: PASSWORD }, { ip: '10.2.1.2' }))
        .statusCode,
    ).toBe(303);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(
      (await browser.post('/sign-in', { email, password: PASSWORD }, { ip: '10.2.1.1' })).statusCode,
    ).toBe(303);
    // The success reset the account: five failures are free again.
    for (let i = 0; i < 5; i++)
      expect(
        (await browser.post('/sign-in', { email, password: 'wrong password!' }, { ip: '10.2.2.1' }))
          .statusCode,
      ).toBe(400);
  });

  it('slows down failed sign-ins per address across accounts; successful ones never count', async () => {
    const browser = new Browser();
    await browser.get('/sign-in');
    const { email } = await member();
    // An office behind one address: its people sign in all day.
    for (let i = 0; i < 35; i++)
      expect(
        (await browser.post('/sign-in', { email, password: PASSWORD }, { ip: '10.3.0.9' })).statusCode,
      ).toBe(303);
    for (let i = 0; i < 31; i++)
      await browser.post(
        '/sign-in',
        { email: `nobody-${i}@example.com`, password: 'whatever password' },
        { ip: '10.3.0.1' },
      );
    expect(
      (await browser.post('/sign-in', { email, password: PASSWORD }, { ip: '10.3.0.1' })).statusCode,
    ).toBe(429);
    expect(
      (await browser.post('/sign-in', { email, password: PASSWORD }, { ip: '10.3.0.2' })).statusCode,
    ).toBe(303);
  });

  it('refuses a form without the CSRF token or with a wrong one, changing nothing', async () => {
    const { email } = await member();
    const browser = await signedIn(email, '10.4.0.1');
    await browser.get('/clients/new');
    for (const csrf of [null, 'forged-token']) {
      const res = await browser.post('/clients', { email: `csrf-${csrf}@example.com` }, { csrf });
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('Form expired');
    }
    expect((await api.get('/api/v1/clients')).body.clients).toHaveLength(0);
    expect((await browser.post('/clients', { email: 'real@example.com' })).statusCode).toBe(303);
    expect((await api.get('/api/v1/clients')).body.clients).toHaveLength(1);
  });

  it('sends security headers: CSP without inline scripts, no framing', async () => {
    const res = await new Browser().get('/sign-in');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a removed member is out of the organization at the next request', async () => {
    const { email, user } = await member('admin');
    const browser = await signedIn(email, '10.5.0.1');
    expect((await browser.get('/clients')).statusCode).toBe(200);
    await api.ctx.services.members.remove(systemPrincipal(api.org.id), user.id);
    const after = await browser.get('/clients');
    expect(after.statusCode).toBe(403);
    expect(after.body).toContain('not a member of any organization');
  });

  it('a password reset link works once, ends every session, and the new password signs in', async () => {
    const { email } = await member();
    const browser = await signedIn(email, '10.6.0.1');
    const anonymous = new Browser();
    await anonymous.get('/forgot-password');
    expect((await anonymous.post('/forgot-password', { email: email.toUpperCase() })).statusCode).toBe(200);
    const [mail] = await smtp.waitFor(email);
    const link = /http:\/\/sitewright\.test(\/reset-password\/[A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    await anonymous.get(link);
    expect((await anonymous.post(link, { password: 'a brand new password' })).statusCode).toBe(303);
    expect((await browser.get('/clients')).statusCode).toBe(303); // the old session is gone
    const again = await anonymous.get(link);
    expect(again.statusCode).toBe(410);
    expect((await anonymous.post(link, { password: 'yet another password' })).statusCode).toBe(400);
    await anonymous.get('/sign-in');
    expect(
      (await anonymous.post('/sign-in', { email, password: 'a brand new password' }, { ip: '10.6.0.2' }))
        .statusCode,
    ).toBe(303);
  });

  it('an older reset link stops working once a newer one is used', async () => {
    const { email } = await member();
    const anonymous = new Browser();
    await anonymous.get('/forgot-password');
    for (let i = 0; i < 2; i++) await anonymous.post('/forgot-password', { email }, { ip: '10.6.1.1' });
    const links = (await smtp.waitFor(email, 2)).map(
      (mail) => /http:\/\/sitewright\.test(\/reset-password\/[A-Za-z0-9_-]+)/.exec(mail.text)![1]!,
    );
    await anonymous.get(links[1]!);
    expect((await anonymous.post(links[1]!, { password: 'a brand new password' })).statusCode).toBe(303);
    expect((await anonymous.get(links[0]!)).statusCode).toBe(410);
    expect((await anonymous.post(links[0]!, { password: 'an attacker password' })).statusCode).toBe(400);
  });

  it('a password reset, a password change and signing out everywhere disconnect the person’s OAuth apps', async () => {
    const { oauth } = api.ctx.services;
    const client = await oauth.clients.register({
      client_name: 'Agent',
      redirect_uris: ['http://127.0.0.1/cb'],
    });
    const connect = async (userId: string) => {
      const verifier = 'v'.repeat(50);
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const resource = 'http://sitewright.test/api/mcp';
      const auth = await oauth.checkAuthorization({
        client_id: client.clientId,
        redirect_uri: 'http://127.0.0.1/cb',
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource,
      });
      const code = await oauth.approve(auth, { userId, orgId: api.org.id, orgClientId: null });
      const tokens = await oauth.exchangeCode({
        code,
        client_id: client.clientId,
        redirect_uri: 'http://127.0.0.1/cb',
        code_verifier: verifier,
      });
      expect(await oauth.verifyAccess(tokens.access_token, resource)).toBeTruthy();
      return async () => ({
        access: await oauth.verifyAccess(tokens.access_token, resource),
        refresh: await oauth
          .refresh({ refresh_token: tokens.refresh_token, client_id: client.clientId })
          .catch((error: Error) => error.message),
      });
    };
    const disconnected = { access: undefined, refresh: 'The refresh token is not valid' };

    const { email, user } = await member();
    // Changing the password.
    let after = await connect(user.id);
    const browser = await signedIn(email, '10.6.2.1');
    await browser.get('/account');
    const changed = await browser.post('/account/password', {
      current_password: PASSWORD,
      password: 'a second long password',
    });
    expect(changed.statusCode).toBe(303);
    expect(await after()).toEqual(disconnected);
    // Signing out everywhere.
    after = await connect(user.id);
    await browser.get('/account');
    expect((await browser.post('/sign-out-everywhere', {})).statusCode).toBe(303);
    expect(await after()).toEqual(disconnected);
    // A reset by mailed link.
    after = await connect(user.id);
    const anonymous = new Browser();
    await anonymous.get('/forgot-password');
    await anonymous.post('/forgot-password', { email }, { ip: '10.6.2.2' });
    const [mail] = await smtp.waitFor(email);
    const link = /http:\/\/sitewright\.test(\/reset-password\/[A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    await anonymous.get(link);
    expect((await anonymous.post(link, { password: 'a third long password' })).statusCode).toBe(303);
    expect(await after()).toEqual(disconnected);
  });

  it('another organization’s client is a 404 page; a member cannot open API keys', async () => {
    const other = await api.newOrg('Other');
    const theirs = await api.ctx.services.clients.create(systemPrincipal(other.org.id), {
      email: 'theirs@example.com',
    });
    const { email } = await member('member');
    const browser = await signedIn(email, '10.7.0.1');
    expect((await browser.get(`/clients/${theirs.id}`)).statusCode).toBe(404);
    expect((await browser.get('/settings/keys')).statusCode).toBe(403);
  });
});

describe('invitations', () => {
  it('a member invited by email creates an account through the mailed link and lands in the organization', async () => {
    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    const invited = `new-${process.pid}-${++n}@example.com`;
    await api.ctx.services.members.invite(
      systemPrincipal(api.org.id),
      api.org.name,
      { id: owner.user.id, email: owner.user.email, name: null },
      invited,
      'member',
    );
    const [mail] = await smtp.waitFor(invited);
    const link = /http:\/\/sitewright\.test(\/invitations\/[A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const browser = new Browser();
    expect((await browser.get(link)).body).toContain('Join');
    const accepted = await browser.post(link, { name: 'New Person', password: PASSWORD });
    expect(accepted.statusCode).toBe(303);
    expect((await browser.get('/clients')).statusCode).toBe(200);
    expect((await browser.post(link, { name: 'Again', password: PASSWORD })).statusCode).toBe(410);
  });

  it('a client accepts its invitation: active, client.updated with previous_attributes, portal shows only its projects', async () => {
    const client = (await api.post('/api/v1/clients', { email: `client-${++n}@example.com`, name: 'Jane' }))
      .body.client;
    const someoneElse = (await api.post('/api/v1/clients', { email: `other-${++n}@example.com` })).body
      .client;
    const mine = (await api.post('/api/v1/projects', { client_email: client.email, name: 'Jane Bakery' }))
      .body.project;
    const notMine = (
      await api.post('/api/v1/projects', { client_email: someoneElse.email, name: 'Other Site' })
    ).body.project;
    await api.ctx.services.portal.invite(systemPrincipal(api.org.id), client.id);
    const [mail] = await smtp.waitFor(client.email);
    const link = /http:\/\/sitewright\.test(\/invitations\/[A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const browser = new Browser();
    expect((await browser.get(link)).body).toContain(api.org.name);
    expect((await browser.post(link, { password: PASSWORD })).headers.location).toBe('/portal');
    expect((await api.get(`/api/v1/clients/${client.id}`)).body.client.status).toBe('active');
    const event = await api.ctx.database.db
      .selectFrom('events')
      .select('payload')
      .where('org_id', '=', api.org.id)
      .where('type', '=', 'client.updated')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload).data).toMatchObject({
      client: { id: client.id, status: 'active' },
      previous_attributes: { status: 'invited' },
    });
    const portal = await browser.get('/portal');
    expect(portal.body).toContain('Jane Bakery');
    expect(portal.body).not.toContain('Other Site');
    expect((await browser.get(`/portal/projects/${notMine.id}`)).statusCode).toBe(404);
    expect((await browser.get(`/portal/projects/${mine.id}`)).statusCode).toBe(200);
    // The portal client is no agency member: dashboard pages send it to its portal.
    expect((await browser.get('/clients')).headers.location).toBe('/portal');
    // Suspended: out at the next request, and sign-in says why.
    await api.patch(`/api/v1/clients/${client.id}`, { status: 'suspended' });
    expect((await browser.get('/portal')).statusCode).toBe(303);
    await browser.get('/sign-in');
    const refused = await browser.post(
      '/sign-in',
      { email: client.email, password: PASSWORD },
      { ip: '10.8.0.1' },
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('suspended');
  });
});

describe('a fresh install', () => {
  let db: TestDatabase;
  let ctx: Container;
  afterAll(async () => {
    await ctx?.close();
    await db?.drop();
  });

  it('shows the set-up page once; it creates the owner and organization; REGISTRATION=invite refuses sign-up', async () => {
    db = await createTestDatabase();
    ctx = await createContainer(testConfig(db, {}), { rateLimitKeyPrefix: `sw:test:${process.pid}:fresh` });
    const app = await buildServer(ctx);
    const browser = new Browser(app);
    expect((await browser.get('/')).headers.location).toBe('/setup');
    await browser.get('/setup');
    const res = await browser.post('/setup', {
      org_name: 'Fresh <Agency>',
      name: 'Ann',
      email: 'ann@example.com',
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(303);
    const overview = await browser.get('/');
    expect(overview.statusCode).toBe(200);
    expect(overview.body).toContain('Fresh &lt;Agency&gt;');
    expect(overview.body).not.toContain('Fresh <Agency>');
    const second = new Browser(app);
    expect((await second.get('/setup')).headers.location).toBe('/sign-in');
    expect(
      (await second.post('/setup', { org_name: 'Again', email: 'b@example.com', password: PASSWORD }))
        .statusCode,
    ).toBe(403);
    expect((await second.get('/sign-up')).statusCode).toBe(403);
    await app.close();
  });
});
