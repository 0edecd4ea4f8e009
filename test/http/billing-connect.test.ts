// Stripe Connect, the operator's way (STRIPE_SECRET_KEY + STRIPE_CONNECT_CLIENT_ID): an owner
// connects with the OAuth flow of Standard accounts, every call is made on the connected account,
// one platform endpoint at /webhooks/stripe/connect routes events by `event.account`, and the
// application fee is taken on each invoice.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { deliver, useFakeStripe } from '../helpers/billing.ts';
import { PageSession } from '../helpers/page-session.ts';
import { createClient } from '../helpers/fixtures.ts';
import { redactUrl } from '../../src/lib/url-redaction.ts';

const PLATFORM_KEY = 'sk_test_platformkey2026';
const { fake, env } = useFakeStripe({
  STRIPE_SECRET_KEY: PLATFORM_KEY,
  STRIPE_CONNECT_CLIENT_ID: 'ca_testclient123',
  STRIPE_APPLICATION_FEE_PERCENT: '2.5',
});
const api = useTestApi(env);

/** An owner through the whole OAuth flow: the authorize URL, then Stripe's redirect back. */
async function connectWithStripe(owner: PageSession, accountId?: string) {
  const start = await owner.get('/settings/billing/connect');
  expect(start.status).toBe(303);
  const authorize = new URL(start.location!);
  expect(authorize.pathname).toBe('/oauth/authorize');
  expect(authorize.searchParams.get('client_id')).toBe('ca_testclient123');
  expect(authorize.searchParams.get('redirect_uri')).toBe(
    'http://sitewright.test/settings/billing/connect/callback',
  );
  const state = authorize.searchParams.get('state')!;
  const code = fake.issueConnectCode(accountId);
  const back = await owner.get(
    `/settings/billing/connect/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
  );
  return { back, state, code };
}

describe('Stripe Connect', () => {
  it('connects with OAuth, makes the platform endpoint once, and bills on the connected account', async () => {
    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    const page = await owner.get('/settings/billing');
    expect(page.body).toContain('href="/settings/billing/connect"');
    const { back } = await connectWithStripe(owner);
    expect(back.status).toBe(303);
    const connection = (await api.ctx.services.billing.connections.mode(api.org.id))!;
    expect(connection.livemode).toBe(false);
    const endpoints = fake.find('POST', '/v1/webhook_endpoints');
    expect(endpoints).toHaveLength(1);
    expect(endpoints[0]!.body).toMatchObject({
      connect: 'true',
      url: 'http://sitewright.test/webhooks/stripe/connect',
    });
    expect(endpoints[0]!.key).toBe(PLATFORM_KEY);
    expect(endpoints[0]!.account).toBeNull();

    const plan = (await api.post('/api/v1/plans', { name: 'Care', price: 30 })).body.plan;
    const client = await createClient(api, { plan_id: plan.id });
    expect((await api.post(`/api/v1/clients/${client.id}/checkout`, {})).status).toBe(201);
    const checkout = fake.find('POST', '/v1/checkout/sessions').at(-1)!;
    const accountId = checkout.account!;
    expect(accountId).toMatch(/^acct_/);
    expect(checkout.key).toBe(PLATFORM_KEY);
    expect(checkout.body.subscription_data.application_fee_percent).toBe('2.5');
    expect(fake.find('POST', '/v1/prices').every((r) => r.account === accountId)).toBe(true);

    // An event of the connected account, on the platform's endpoint, routed by `account`.
    const secret = [...fake.webhookEndpoints.values()][0]!.secret;
    const session = [...fake.checkoutSessions.values()].at(-1)!;
    const price = (await api.get(`/api/v1/plans/${plan.id}`)).body.plan.stripe_price_id;
    const sub = fake.subscribe({ account: accountId, customer: session.customer, price });
    const done = fake.event(
      'checkout.session.completed',
      { ...session, subscription: sub.id },
      { account: accountId },
    );
    expect((await deliver(api, '/webhooks/stripe/connect', done, secret)).body.outcome).toBe('handled');
    expect((await api.get(`/api/v1/clients/${client.id}`)).body.client.payment_status).toBe('active');
    // Another account's event is not this organization's; a bad signature is refused.
    const stranger = fake.event('customer.subscription.updated', sub, { account: 'acct_stranger' });
    expect((await deliver(api, '/webhooks/stripe/connect', stranger, secret)).body.outcome).toBe('ignored');
    expect((await deliver(api, '/webhooks/stripe/connect', stranger, 'whsec_wrong')).status).toBe(400);

    // Disconnecting deauthorizes the account; its events are then ignored.
    expect((await owner.post('/settings/billing/disconnect')).status).toBe(303);
    expect(fake.find('POST', '/oauth/deauthorize').at(-1)!.body.stripe_user_id).toBe(accountId);
    const later = fake.event('customer.subscription.deleted', sub, { account: accountId });
    expect((await deliver(api, '/webhooks/stripe/connect', later, secret)).body.outcome).toBe('ignored');

    // Connecting again (another organization) reuses the one platform endpoint.
    const other = await api.newOrg('Other');
    const otherOwner = await PageSession.signIn(api.app, api.ctx, other.org.id, 'owner');
    expect((await connectWithStripe(otherOwner)).back.status).toBe(303);
    expect(fake.find('POST', '/v1/webhook_endpoints')).toHaveLength(1);
  });

  it('refuses a state that was not made for this organization, and keeps code and state out of the logs', async () => {
    const owner = await PageSession.signIn(api.app, api.ctx, api.org.id, 'owner');
    const other = await api.newOrg('Elsewhere');
    const stranger = await PageSession.signIn(api.app, api.ctx, other.org.id, 'owner');
    const start = await stranger.get('/settings/billing/connect');
    const state = new URL(start.location!).searchParams.get('state')!;
    const code = fake.issueConnectCode();
    const res = await owner.get(
      `/settings/billing/connect/callback?code=${code}&state=${encodeURIComponent(state)}`,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatch(/not started here/);
    expect(await api.ctx.services.billing.connections.mode(api.org.id)).toBeNull();
    const denied = await owner.get(
      '/settings/billing/connect/callback?error=access_denied&error_description=The+user+denied',
    );
    expect(denied.status).toBe(400);
    expect(denied.body).toContain('Stripe said: The user denied');
    const logged = redactUrl(`/settings/billing/connect/callback?code=${code}&state=abc`);
    expect(logged).not.toContain(code);
    expect(logged).not.toContain('abc');
  });
});
