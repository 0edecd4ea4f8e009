// Open sign-up (REGISTRATION=open) waits for the email: the account and its organization exist
// once the mailed link is followed, so nobody can take another person's address. What anonymous
// visitors can make the server keep or send is bounded: sign-ups per address and mails per email
// slow down, a newer sign-up of the same email replaces the older, an organization holds at most
// MAX_PENDING_PER_ORG build-link sign-ups at once; reset mails per address and per email too.
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_PENDING_PER_ORG } from '../../src/modules/accounts/signups.ts';
import { RateLimitedError } from '../../src/modules/common/errors.ts';
import { useTestApi } from '../helpers/app.ts';
import { PageSession, visibleText } from '../helpers/page-session.ts';
import { SmtpSink } from '../helpers/smtp.ts';

const smtp = await SmtpSink.start();
afterAll(() => smtp.close());
const api = useTestApi({ REGISTRATION: 'open', SMTP_URL: smtp.url });
const PASSWORD = 'a long enough password';
const linkIn = (text: string) =>
  /http:\/\/sitewright\.test(\/sign-up\/confirm\/[A-Za-z0-9_-]+)/.exec(text)![1]!;

describe('open sign-up', () => {
  it('creates the account and its organization only once the mailed link is followed', async () => {
    const visitor = PageSession.anonymous(api.app);
    await visitor.get('/sign-up');
    const sent = await visitor.post('/sign-up', {
      org_name: 'Dune Studio',
      name: 'Dana',
      email: 'dana@dune.test',
      password: PASSWORD,
    });
    expect(sent.status).toBe(200);
    expect(visibleText(sent.body)).toContain('We sent a link to dana@dune.test');
    expect(await api.ctx.services.accounts.findUserByEmail('dana@dune.test')).toBeUndefined();
    // Someone else signs up with the same email: both wait, each confirmed only with its own
    // password, so neither can cancel the other or hand the owner an account it does not control.
    await visitor.post('/sign-up', {
      org_name: 'Dune Studio 2',
      name: 'Mallory',
      email: 'dana@dune.test',
      password: 'mallory password 1',
    });
    const [first, second] = (await smtp.waitFor('dana@dune.test', 2)).map((m) => linkIn(m.text));
    expect((await smtp.waitFor('dana@dune.test', 2))[0]!.text).not.toContain('Dune Studio');
    const page = await visitor.get(first!);
    expect(page.status).toBe(200);
    expect(visibleText(page.body)).toContain('Your agency: Dune Studio');
    const wrong = await visitor.post(first!, { password: 'mallory password 1' });
    expect(wrong.status).toBe(400);
    expect(visibleText(wrong.body)).toContain('not the password chosen when signing up');
    const done = await visitor.post(first!, { password: PASSWORD });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/');
    expect((await visitor.get('/')).status).toBe(200);
    // The other sign-up of that email can no longer become an account.
    const other = PageSession.anonymous(api.app);
    await other.get(second!);
    expect((await other.post(second!, { password: 'mallory password 1' })).status).toBe(400);
    const user = await api.ctx.services.accounts.findUserByEmail('dana@dune.test');
    const memberships = await api.ctx.database.db
      .selectFrom('memberships')
      .innerJoin('organizations as o', 'o.id', 'memberships.org_id')
      .select(['o.name', 'memberships.role'])
      .where('user_id', '=', user!.id)
      .execute();
    expect(memberships).toEqual([{ name: 'Dune Studio', role: 'owner' }]);
    expect((await visitor.get(first!)).status).toBe(410);
  });

  it('refuses an agency name that is taken or too long, and an email with an account, keeping nothing', async () => {
    await api.ctx.services.accounts.createMember({
      email: 'taken@dune.test',
      password: PASSWORD,
      name: null,
      orgId: api.org.id,
      role: 'owner',
    });
    const visitor = PageSession.anonymous(api.app);
    await visitor.get('/sign-up');
    const refused = await visitor.post('/sign-up', {
      org_name: 'X',
      email: 'Taken@dune.test',
      password: PASSWORD,
    });
    expect(refused.status).toBe(400);
    expect(visibleText(refused.body)).toContain('already exists: sign in instead');
    expect(
      await api.ctx.database.db
        .selectFrom('signups')
        .select('email')
        .where('email_lower', '=', 'taken@dune.test')
        .execute(),
    ).toEqual([]);
    // An agency that exists (even without members yet) is never handed to a stranger.
    await api.ctx.services.orgs.createOrg('Waiting Agency');
    const taken = await visitor.post('/sign-up', {
      org_name: 'Waiting Agency',
      email: 'stranger@dune.test',
      password: PASSWORD,
    });
    expect(taken.status).toBe(400);
    expect(visibleText(taken.body)).toContain('already exists here: choose another name');
    expect(
      (
        await visitor.post('/sign-up', {
          org_name: 'x'.repeat(201),
          email: 'long@dune.test',
          password: PASSWORD,
        })
      ).status,
    ).toBe(400);
  });
});

describe('bounds on what anonymous visitors can make the server keep or send', () => {
  const signups = () => api.ctx.services.accounts.signups;
  const request = (email: string, address: string) =>
    signups().request({ kind: 'open', email, password: PASSWORD, name: null, orgName: 'Flood' }, address);

  it('slows sign-ups down per address and confirmation mails per email', async () => {
    for (let i = 0; i < 6; i++) await request(`flood-${i}@flood.test`, '10.8.0.1');
    await expect(request('flood-6@flood.test', '10.8.0.1')).rejects.toBeInstanceOf(RateLimitedError);
    await request('someone@flood.test', '10.8.0.2');
    for (let i = 0; i < 3; i++) await request('same@flood.test', `10.8.1.${i}`);
    await request('same@flood.test', '10.8.1.9'); // the fourth takes the slot after the free three
    await expect(request('same@flood.test', '10.8.1.10')).rejects.toThrow(
      /confirmation mails to this address/,
    );
    expect(
      await api.ctx.database.db
        .selectFrom('signups')
        .select('email')
        .where('email_lower', '=', 'same@flood.test')
        .execute(),
    ).toHaveLength(4);
  });

  it('holds at most MAX_PENDING_PER_ORG build-link sign-ups per organization', async () => {
    const now = Date.now();
    const rows = Array.from({ length: MAX_PENDING_PER_ORG }, (_, i) => ({
      token_hash: `seeded-${i}`,
      kind: 'build' as const,
      email: `s${i}@seed.test`,
      email_lower: `s${i}@seed.test`,
      password_hash: 'x',
      name: null,
      org_name: 'Agency',
      org_id: api.org.id,
      prompt: 'p',
      model: null,
      template_id: null,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + 3_600_000).toISOString(),
    }));
    await api.ctx.database.db.insertInto('signups').values(rows).execute();
    const build = {
      kind: 'build' as const,
      email: 'one-more@seed.test',
      password: PASSWORD,
      name: null,
      orgId: api.org.id,
      orgName: 'Agency',
      prompt: 'p',
      model: null,
      templateId: null,
    };
    await expect(signups().request(build, '10.8.2.1')).rejects.toThrow(/many sign-ups waiting/);
  });

  it('slows reset requests down per address, and quietly stops mailing one email', async () => {
    await api.ctx.services.accounts.createMember({
      email: 'reset@dune.test',
      password: PASSWORD,
      name: null,
      orgId: api.org.id,
      role: 'owner',
    });
    const { accounts } = api.ctx.services;
    for (let i = 0; i < 5; i++) await accounts.requestPasswordReset('reset@dune.test', `10.8.3.${i}`);
    expect(smtp.to('reset@dune.test')).toHaveLength(4); // three free, one after a delay
    for (let i = 0; i < 11; i++) await accounts.requestPasswordReset(`nobody-${i}@dune.test`, '10.8.4.1');
    await expect(accounts.requestPasswordReset('nobody@dune.test', '10.8.4.1')).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });
});
