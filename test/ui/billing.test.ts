// Billing in the pages, on both engines: Settings → Billing (owners connect a key; members see
// the state), a client's page (send or copy a payment link, its payments), and the client portal
// (Pay, Manage billing, the payment page of a client billing suspended), against the fake Stripe
// API and a real SMTP server on loopback.
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { deliver, useFakeStripe } from '../helpers/billing.ts';
import { PageSession, visibleText } from '../helpers/page-session.ts';
import { SmtpSink } from '../helpers/smtp.ts';

const smtp = await SmtpSink.start();
afterAll(() => smtp.close());
const { fake, env } = useFakeStripe({ SMTP_URL: smtp.url });
const api = useTestApi(env);
const XSS = '<script>window.__xss=1</script>';

let owner: PageSession;

async function connectedOwner() {
  owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
  const res = await owner.post('/settings/billing/connect', { key: 'rk_test_pageskey12345' });
  expect(res.status).toBe(303);
  return owner;
}

async function clientOnPlan(email: string) {
  const plan = (await api.post('/api/v1/plans', { name: `Site care ${XSS}`, price: 49 })).body.plan;
  const res = await api.post('/api/v1/clients', { email, name: `Dana ${XSS}`, plan_id: plan.id });
  expect(res.status).toBe(201);
  return res.body.client;
}

describe('Settings → Billing', () => {
  it('an owner connects a key; the page labels test mode and never shows the key', async () => {
    const session = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    const empty = await session.get('/settings/billing');
    expect(empty.status).toBe(200);
    expect(visibleText(empty.body)).toContain('Not connected');
    const bad = await session.post('/settings/billing/connect', { key: `rk_test_${XSS}` });
    expect(bad.status).toBe(400);
    expect(visibleText(bad.body)).toMatch(/The key must be a Stripe restricted key/);
    expect(bad.body).not.toContain(XSS);
    const ok = await session.post('/settings/billing/connect', { key: 'rk_test_pageskey12345' });
    expect(ok.status).toBe(303);
    const page = await session.get('/settings/billing');
    const text = visibleText(page.body);
    expect(text).toContain('Test mode');
    expect(text).toMatch(/Connected to .* \(test mode\)/);
    expect(text).toContain('With a restricted key ending …2345');
    expect(page.body).not.toContain('rk_test_pageskey');
    expect(text).toMatch(/Events arrive at http:\/\/sitewright\.test\/webhooks\/stripe\//);
  });

  it('members see the state but only owners change it', async () => {
    await connectedOwner();
    const member = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    const page = await member.get('/settings/billing');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('name="key"');
    expect(visibleText(page.body)).toContain('Owners change these.');
    const admin = await PageSession.signIn(api.app, api.ctx, api.org.id, 'admin');
    expect((await admin.post('/settings/billing/disconnect')).status).toBe(403);
    expect((await member.post('/settings/billing/settings', { currency: 'eur' })).status).toBe(403);
  });

  it('saves the automations and refuses a bad currency', async () => {
    const session = await connectedOwner();
    const bad = await session.post('/settings/billing/settings', { currency: 'euro' });
    expect(bad.status).toBe(400);
    expect(visibleText(bad.body)).toMatch(/three-letter ISO 4217 code/);
    const saved = await session.post('/settings/billing/settings', {
      currency: 'EUR',
      suspend_on_cancel: 'on',
      past_due_days: '14',
    });
    expect(saved.status).toBe(303);
    const page = await session.get('/settings/billing');
    expect(page.body).toContain('name="suspend_on_cancel" checked');
    expect(page.body).not.toContain('name="unpublish_on_cancel" checked');
    expect(page.body).toContain('value="14"');
    expect(page.body).toContain('value="eur"');
  });

  it('disconnecting removes the endpoint on the account', async () => {
    const session = await connectedOwner();
    const endpoint = fake.find('POST', '/v1/webhook_endpoints').at(-1)!;
    const id = [...fake.webhookEndpoints.values()].find((e) => e.url === endpoint.body.url)!.id;
    const res = await session.post('/settings/billing/disconnect');
    expect(res.status).toBe(303);
    expect(fake.find('DELETE', `/v1/webhook_endpoints/${id}`)).toHaveLength(1);
    expect(visibleText((await session.get('/settings/billing')).body)).toContain('Billing disconnected');
  });
});

describe('a client’s page', () => {
  it('sends the payment link by mail and shows one to copy, escaped', async () => {
    const session = await connectedOwner();
    const client = await clientOnPlan('dana@example.com');
    const sent = await session.post(`/clients/${client.id}/payment-link/send`);
    expect(sent.status).toBe(303);
    const [mail] = await smtp.waitFor('dana@example.com');
    const url = [...fake.checkoutSessions.values()].at(-1)!.url as string;
    expect(mail!.text).toContain(url);
    expect(mail!.subject).toMatch(/Your payment link from/);
    expect(mail!.text).toContain('$49.00 a month');
    expect(visibleText((await session.get(`/clients/${client.id}`)).body)).toContain(
      'Payment link sent to dana@example.com.',
    );
    const copy = await session.post(`/clients/${client.id}/payment-link`);
    expect(copy.status, copy.body.slice(0, 2000)).toBe(200);
    const shown = [...fake.checkoutSessions.values()].at(-1)!.url as string;
    expect(copy.body).toContain(`value="${shown}"`);
    expect(copy.body).toContain('data-copy="#payment-link"');
    expect(copy.body).not.toContain(XSS);
  });

  it('says billing is not connected, with the way to connect it', async () => {
    const session = await PageSession.signIn(api.app, api.ctx, api.org.id, 'member');
    const client = await clientOnPlan('lee@example.com');
    const page = await session.get(`/clients/${client.id}`);
    expect(visibleText(page.body)).toContain('Billing is not connected.');
    const refused = await session.post(`/clients/${client.id}/payment-link`);
    expect(refused.status).toBe(303);
    expect(visibleText((await session.get(`/clients/${client.id}`)).body)).toMatch(/not connected/);
  });
});

describe('the client portal', () => {
  async function paying(email: string) {
    await connectedOwner();
    const client = await clientOnPlan(email);
    const portal = await PageSession.signInClient(api.app, api.ctx, api.org.id, client.id);
    await api.patch(`/api/v1/clients/${client.id}`, { status: 'active' });
    return { client, portal };
  }

  it('offers Pay, which leaves for Stripe Checkout, then Manage billing once subscribed', async () => {
    const { client, portal } = await paying('pat@example.com');
    const page = await portal.get('/portal/billing');
    expect(page.status).toBe(200);
    expect(visibleText(page.body)).toContain('$49.00 a month');
    expect(page.body).toContain('href="/portal/billing/pay"');
    const pay = await portal.get('/portal/billing/pay');
    expect(pay.status).toBe(303);
    const session = [...fake.checkoutSessions.values()].at(-1)!;
    expect(pay.location).toBe(session.url);
    expect(session.client_reference_id).toBe(client.id);

    const connection = (await api.ctx.database.db
      .selectFrom('billing_connections')
      .selectAll()
      .where('org_id', '=', api.org.id)
      .where('disconnected_at', 'is', null)
      .executeTakeFirstOrThrow())!;
    const secret = [...fake.webhookEndpoints.values()].find((e) =>
      String(e.url).endsWith(connection.id),
    )!.secret;
    const price = (await api.get(`/api/v1/plans/${client.plan_id}`)).body.plan.stripe_price_id;
    const sub = fake.subscribe({ account: connection.account_id, customer: session.customer, price });
    const done = fake.event('checkout.session.completed', { ...session, subscription: sub.id });
    expect((await deliver(api, `/webhooks/stripe/${connection.id}`, done, secret)).status).toBe(200);
    const after = await portal.get('/portal/billing');
    expect(after.body).toContain('href="/portal/billing/manage"');
    const manage = await portal.get('/portal/billing/manage');
    expect(manage.status).toBe(303);
    expect(manage.location).toMatch(new RegExp(`^${fake.url}/p/session/`));
    expect((await portal.get('/portal')).body).toContain('href="/portal/billing"');
  });

  it('a client billing suspended signs in to its payment page only', async () => {
    const { client, portal } = await paying('sam@example.com');
    await api.ctx.services.billing.updateSettings(
      (await import('../../src/modules/access/principal.ts')).systemPrincipal(api.org.id),
      { suspend_on_cancel: true },
    );
    await api.ctx.services.billing.automations.after([
      {
        orgId: api.org.id,
        clientId: client.id,
        before: 'active',
        after: 'canceled',
        paid: false,
        firstPayment: false,
      },
    ]);
    expect((await api.get(`/api/v1/clients/${client.id}`)).body.client.status).toBe('suspended');
    const home = await portal.get('/portal');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/portal/billing');
    const page = await portal.get('/portal/billing');
    expect(visibleText(page.body)).toContain('Your access is paused');
    expect((await portal.get('/portal/billing/pay')).status).toBe(303);
    // Nothing else: not the builder, not a new build.
    const build = await portal.get('/build?prompt=A+bakery+in+Leeds');
    expect(build.status).toBe(303);
    expect(build.location).toBe('/portal/billing');
    // A suspension the agency makes itself still locks the client out.
    await api.patch(`/api/v1/clients/${client.id}`, { status: 'active' });
    await api.patch(`/api/v1/clients/${client.id}`, { status: 'suspended' });
    expect((await portal.get('/portal/billing')).status).toBe(303);
  });
});
