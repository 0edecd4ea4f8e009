// Client billing through the agency's own Stripe key, against the fake Stripe API on loopback,
// driven through the official `stripe` client; events signed with the library's test header.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { connectKey, deliver, outbox, useFakeStripe } from '../helpers/billing.ts';
import { createClient } from '../helpers/fixtures.ts';
import Stripe from 'stripe';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const { fake, env } = useFakeStripe();
const api = useTestApi(env);

async function planOf(price: number, interval: 'monthly' | 'yearly' = 'monthly') {
  const res = await api.post('/api/v1/plans', { name: `Plan ${price}`, price, interval });
  expect(res.status).toBe(201);
  return res.body.plan;
}

/** A connected organization, a plan at 29/month, a client on it, and its first checkout. */
async function checkedOut() {
  const billing = await connectKey(api, fake);
  const plan = await planOf(29);
  const client = await createClient(api, {
    email: `c${Date.now()}${Math.random()}@example.com`,
    plan_id: plan.id,
  });
  const res = await api.post(`/api/v1/clients/${client.id}/checkout`, {});
  expect(res.status).toBe(201);
  const session = [...fake.checkoutSessions.values()].at(-1)!;
  return { ...billing, plan, client, session, path: `/webhooks/stripe/${billing.connection.id}` };
}

/** The subscription a completed checkout makes, and the events Stripe sends for it. */
async function subscribed(status = 'active') {
  const setup = await checkedOut();
  const planRow = await api.get(`/api/v1/plans/${setup.plan.id}`);
  const sub = fake.subscribe({
    account: setup.account,
    customer: setup.session.customer,
    price: planRow.body.plan.stripe_price_id,
    status,
    metadata: { sitewright_client_id: setup.client.id },
  });
  const completed = fake.event('checkout.session.completed', {
    ...setup.session,
    status: 'complete',
    subscription: sub.id,
  });
  expect((await deliver(api, setup.path, completed, setup.secret)).status).toBe(200);
  return { ...setup, sub };
}

const clientOf = async (id: string) => (await api.get(`/api/v1/clients/${id}`)).body.client;

describe('connecting the agency’s own key', () => {
  it('checks the key, makes the webhook endpoint and keeps no secret in sight', async () => {
    const { connection, key } = await connectKey(api, fake);
    expect(connection.livemode).toBe(false);
    expect(connection.key_kind).toBe('restricted');
    expect(connection.webhook_url).toBe(`http://sitewright.test/webhooks/stripe/${connection.id}`);
    const made = fake.find('POST', '/v1/webhook_endpoints').at(-1)!;
    expect(made.key).toBe(key);
    // Events come in the library's API version, the shapes the handler reads.
    expect(made.body.api_version).toBe(Stripe.API_VERSION);
    expect(made.body.enabled_events).toEqual(
      expect.arrayContaining(['checkout.session.completed', 'invoice.paid', 'customer.subscription.deleted']),
    );
    const row = await api.ctx.database.db
      .selectFrom('billing_connections')
      .selectAll()
      .where('id', '=', connection.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key.slice(8));
    expect(JSON.stringify(connection)).not.toContain(key.slice(8));
  });

  it('refuses a wrong key, a publishable key and a revoked one with a clear 400', async () => {
    const billing = api.ctx.services.billing;
    const owner = systemPrincipal(api.org.id);
    await expect(billing.connectKey(owner, 'pk_test_abcdefghijkl')).rejects.toThrow(/publishable/);
    await expect(billing.connectKey(owner, 'hello')).rejects.toThrow(/restricted key/);
    fake.revokedKeys.add('rk_test_revokedkey123');
    await expect(billing.connectKey(owner, 'rk_test_revokedkey123')).rejects.toThrow(/refused the key/);
    expect(await billing.connections.get(owner)).toBeUndefined();
  });

  it('cannot keep a key without a secrets key, and says what the operator must do', async () => {
    const { BillingConnections } = await import('../../src/modules/billing/connections.ts');
    const { SECRETS_MISSING } = await import('../../src/modules/index.ts');
    const { createStripeProcessor } = await import('../../src/providers/stripe/processor.ts');
    const connections = new BillingConnections({
      database: api.ctx.database,
      processor: createStripeProcessor(api.ctx.config.stripe),
      secrets: undefined,
      secretsMissing: SECRETS_MISSING,
      publicUrl: 'http://sitewright.test',
    });
    expect(connections.canKeepSecrets).toBe(false);
    const attempt = connections.connectKey(systemPrincipal(api.org.id), 'rk_test_nosecretskey1');
    await expect(attempt).rejects.toThrow(/SECRETS_KEY/);
    expect(
      fake.find('POST', '/v1/webhook_endpoints').filter((r) => r.key === 'rk_test_nosecretskey1'),
    ).toEqual([]);
  });

  it('warns about a secret key, and disconnecting removes the endpoint and the webhook path', async () => {
    const owner = systemPrincipal(api.org.id);
    const { warning, connection } = await api.ctx.services.billing.connectKey(
      owner,
      'sk_test_secretkey12345',
    );
    expect(warning).toMatch(/secret key/);
    const endpoint = [...fake.webhookEndpoints.values()].find((e) => e.url === connection.webhook_url)!;
    expect(await api.ctx.services.billing.connections.disconnect(owner)).toEqual({
      disconnected: true,
      stripe: 'removed',
    });
    expect(fake.find('DELETE', `/v1/webhook_endpoints/${endpoint.id}`)).toHaveLength(1);
    const event = fake.event('invoice.paid', { id: 'in_x', object: 'invoice' });
    expect((await deliver(api, `/webhooks/stripe/${connection.id}`, event, endpoint.secret)).status).toBe(
      404,
    );
  });

  it('answers 404 for a connection id that is not one, and 400 for a bad or missing signature', async () => {
    const { path, secret } = await checkedOut();
    const event = fake.event('customer.subscription.updated', { id: 'sub_x', object: 'subscription' });
    expect(
      (await deliver(api, '/webhooks/stripe/00000000-0000-4000-8000-000000000000', event, secret)).status,
    ).toBe(404);
    expect((await deliver(api, '/webhooks/stripe/not-an-id', event, secret)).status).toBe(404);
    const missing = await deliver(api, path, event, null);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/Stripe-Signature/);
    expect((await deliver(api, path, event, 'whsec_other')).status).toBe(400);
    expect((await deliver(api, path, event, secret, true)).status).toBe(400);
    const seen = await api.ctx.database.db.selectFrom('billing_events').select('event_id').execute();
    expect(seen.map((r) => r.event_id)).not.toContain(event.id);
  });
});

describe('plans on the connected account', () => {
  it('mirrors a plan as a Product and a Price, and a price change makes a new Price', async () => {
    const { sub, account, plan } = await subscribed();
    const before = (await api.get(`/api/v1/plans/${plan.id}`)).body.plan;
    expect(before.stripe_product_id).toMatch(/^prod_/);
    expect(before.stripe_price_id).toMatch(/^price_/);
    const firstPrice = fake.prices.get(before.stripe_price_id)!;
    expect(firstPrice).toMatchObject({
      unit_amount: 2900,
      currency: 'usd',
      recurring: { interval: 'month' },
    });

    const changed = await api.patch(`/api/v1/plans/${plan.id}`, { price: 39 });
    expect(changed.status).toBe(200);
    const after = changed.body.plan;
    expect(after.stripe_price_id).not.toBe(before.stripe_price_id);
    expect(after.stripe_product_id).toBe(before.stripe_product_id);
    expect(fake.prices.get(after.stripe_price_id)).toMatchObject({ unit_amount: 3900, active: true });
    expect(fake.prices.get(before.stripe_price_id)!.active).toBe(false);
    // The existing subscription moves to the new Price for its next renewal, without proration.
    const moved = fake.find('POST', `/v1/subscriptions/${sub.id}`).at(-1)!;
    expect(moved.account ?? account).toBe(account);
    expect(moved.body.proration_behavior).toBe('none');
    expect(moved.body.items[0].price).toBe(after.stripe_price_id);
  });

  it('moves a subscription to a new interval at its renewal through a schedule, without proration', async () => {
    const { sub, plan } = await subscribed();
    const old = (await api.get(`/api/v1/plans/${plan.id}`)).body.plan.stripe_price_id;
    const changed = await api.patch(`/api/v1/plans/${plan.id}`, { interval: 'yearly', price: 290 });
    const yearly = changed.body.plan.stripe_price_id;
    expect(fake.prices.get(yearly)).toMatchObject({ unit_amount: 29000, recurring: { interval: 'year' } });
    // The item itself is not touched (that would restart the billing cycle now)...
    expect(fake.find('POST', `/v1/subscriptions/${sub.id}`)).toEqual([]);
    expect(fake.subscriptions.get(sub.id)!.items.data[0].price.id).toBe(old);
    // ...a schedule keeps the paid period on the old price, then the new one, then lets go.
    const schedule = [...fake.subscriptionSchedules.values()].find((s) => s.subscription === sub.id)!;
    const item = fake.subscriptions.get(sub.id)!.items.data[0];
    expect(schedule.end_behavior).toBe('release');
    expect(schedule.phases).toHaveLength(2);
    expect(schedule.phases[0]).toMatchObject({
      end_date: String(item.current_period_end),
      items: [{ price: old }],
    });
    expect(schedule.phases[1]).toMatchObject({
      items: [{ price: yearly }],
      proration_behavior: 'none',
      duration: { interval: 'year', interval_count: '1' },
    });
  });

  it('archives the Price of a plan made inactive or free', async () => {
    await connectKey(api, fake);
    const plan = await planOf(15);
    const price = (await api.get(`/api/v1/plans/${plan.id}`)).body.plan.stripe_price_id;
    const off = await api.patch(`/api/v1/plans/${plan.id}`, { is_active: false });
    expect(off.body.plan.stripe_price_id).toBeNull();
    expect(fake.prices.get(price)!.active).toBe(false);
  });
});

describe('a payment link', () => {
  it('is a Checkout Session in subscription mode for the client’s plan', async () => {
    const { session, client, plan } = await checkedOut();
    expect(session.mode).toBe('subscription');
    expect(session.client_reference_id).toBe(client.id);
    const request = fake.find('POST', '/v1/checkout/sessions').at(-1)!;
    const price = (await api.get(`/api/v1/plans/${plan.id}`)).body.plan.stripe_price_id;
    expect(request.body.line_items).toEqual([{ price, quantity: '1' }]);
    expect(request.body.success_url).toBe('http://sitewright.test/portal/billing?checkout=done');
    const customer = fake.customers.get(session.customer)!;
    expect(customer.email).toBe(client.email);
    // A second link reuses the client's one Customer.
    const again = await api.post(`/api/v1/clients/${client.id}/checkout`);
    expect(again.status).toBe(201);
    expect(new Date(again.body.expires_at).getTime()).toBeGreaterThan(Date.now());
    expect([...fake.checkoutSessions.values()].at(-1)!.customer).toBe(session.customer);
    // One link open at a time: the earlier one is expired, so two subscriptions cannot start.
    expect(fake.find('POST', `/v1/checkout/sessions/${session.id}/expire`)).toHaveLength(1);
    expect(fake.checkoutSessions.get(session.id)!.status).toBe('expired');
    const last = [...fake.checkoutSessions.values()].at(-1)!;
    last.status = 'complete';
    const paid = await api.post(`/api/v1/clients/${client.id}/checkout`, {});
    expect(paid.status).toBe(409);
    expect(paid.body.error).toMatch(/just paid/);
  });

  it('keeps the Customer’s name in step with the client’s', async () => {
    const { session, client } = await checkedOut();
    expect((await api.patch(`/api/v1/clients/${client.id}`, { name: 'Dana Baker' })).status).toBe(200);
    expect(fake.customers.get(session.customer)!.name).toBe('Dana Baker');
  });

  it('says why it cannot be made', async () => {
    const free = await planOf(0);
    const client = await createClient(api, { email: 'free@example.com', plan_id: free.id });
    const none = await api.post(`/api/v1/clients/${client.id}/checkout`, {});
    expect(none.status).toBe(409);
    expect(none.body.error).toMatch(/not connected/);
    await connectKey(api, fake);
    expect((await api.post(`/api/v1/clients/${client.id}/checkout`, {})).body.error).toMatch(/free/);
    const bare = await createClient(api, { email: 'bare@example.com' });
    const noPlan = await api.post(`/api/v1/clients/${bare.id}/checkout`, {});
    expect(noPlan.status).toBe(400);
    expect(noPlan.body.error).toMatch(/plan_id/);
    const bad = await api.post(`/api/v1/clients/${client.id}/checkout`, {
      success_url: 'javascript:alert(1)',
    });
    expect(bad.status).toBe(400);
    expect((await api.post(`/api/v1/clients/${client.id}/checkout`, { plan: 'x' })).status).toBe(400);
    const missing = await api.post('/api/v1/clients/00000000-0000-4000-8000-000000000000/checkout', {});
    expect(missing.status).toBe(404);
    expect((await api.post(`/api/v1/clients/${client.id}/checkout`, {}, { key: api.readKey })).status).toBe(
      403,
    );
  });

  it('is refused to a client with a running subscription', async () => {
    const { client } = await subscribed();
    const res = await api.post(`/api/v1/clients/${client.id}/checkout`, {});
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/already has a subscription/);
  });
});

describe('payment_status follows the subscription', () => {
  it('moves through each state, each change a client.updated with previous_attributes', async () => {
    const { client, sub, path, secret } = await subscribed();
    expect((await clientOf(client.id)).payment_status).toBe('active');
    const steps: [string, string][] = [
      ['past_due', 'past_due'],
      ['unpaid', 'past_due'],
      ['active', 'active'],
      ['trialing', 'active'],
      ['canceled', 'canceled'],
    ];
    for (const [status, expected] of steps) {
      fake.setSubscriptionStatus(sub.id, status);
      const res = await deliver(api, path, fake.event('customer.subscription.updated', sub), secret);
      expect(res.status).toBe(200);
      expect((await clientOf(client.id)).payment_status, status).toBe(expected);
    }
    const updates = (await outbox(api, 'client.updated')).map((e) => e.data);
    const statuses = updates
      .filter((d) => 'payment_status' in d.previous_attributes)
      .map((d) => [d.previous_attributes.payment_status, d.client.payment_status]);
    expect(statuses).toEqual([
      ['none', 'active'],
      ['active', 'past_due'],
      ['past_due', 'active'],
      ['active', 'canceled'],
    ]);
    // payment_status stays read-only in the API.
    expect((await api.patch(`/api/v1/clients/${client.id}`, { payment_status: 'active' })).status).toBe(400);
  });

  it('maps incomplete to none and incomplete_expired to canceled', async () => {
    const { client, sub, path, secret } = await subscribed('incomplete');
    expect((await clientOf(client.id)).payment_status).toBe('none');
    fake.setSubscriptionStatus(sub.id, 'incomplete_expired');
    await deliver(api, path, fake.event('customer.subscription.updated', sub), secret);
    expect((await clientOf(client.id)).payment_status).toBe('canceled');
  });

  it('takes the newest state whatever order the events come in, and handles each event once', async () => {
    const { client, sub, path, secret } = await subscribed();
    const old = fake.event('customer.subscription.updated', { ...sub, status: 'active' });
    fake.setSubscriptionStatus(sub.id, 'canceled');
    const newer = fake.event('customer.subscription.deleted', { ...sub, status: 'canceled' });
    expect((await deliver(api, path, newer, secret)).body.outcome).toBe('handled');
    expect((await deliver(api, path, old, secret)).body.outcome).toBe('handled');
    expect((await clientOf(client.id)).payment_status).toBe('canceled');
    const replay = await deliver(api, path, newer, secret);
    expect(replay).toEqual({ status: 200, body: { received: true, outcome: 'replay' } });
  });

  it('ignores a live event on a test connection', async () => {
    const { client, sub, path, secret } = await subscribed();
    fake.setSubscriptionStatus(sub.id, 'canceled');
    const live = fake.event('customer.subscription.deleted', sub, { livemode: true });
    expect((await deliver(api, path, live, secret)).body.outcome).toBe('ignored');
    expect((await clientOf(client.id)).payment_status).toBe('active');
  });

  it('moves the client’s plan to the subscribed price’s plan', async () => {
    const { client, sub, path, secret, account } = await subscribed();
    const other = await planOf(99);
    const otherPrice = (await api.get(`/api/v1/plans/${other.id}`)).body.plan.stripe_price_id;
    fake.subscriptions.get(sub.id)!.items.data[0].price = fake.prices.get(otherPrice);
    expect(fake.accountOf(otherPrice)).toBe(account);
    await deliver(api, path, fake.event('customer.subscription.updated', sub), secret);
    expect((await clientOf(client.id)).plan_id).toBe(other.id);
    const last = (await outbox(api, 'client.updated')).at(-1)!.data;
    expect(last.previous_attributes).toEqual({ plan_id: client.plan_id });
  });
});

describe('payments', () => {
  it('records each paid invoice once, emits payment.received and lists it newest first', async () => {
    const { client, sub, path, secret, account, plan } = await subscribed();
    const invoice = fake.invoice({ account, subscription: sub.id });
    const paid = fake.event('invoice.paid', invoice);
    expect((await deliver(api, path, paid, secret)).status).toBe(200);
    expect((await deliver(api, path, paid, secret)).body.outcome).toBe('replay');
    // Another event naming the same invoice is still one payment.
    await deliver(api, path, fake.event('invoice.paid', invoice), secret);
    fake.renew(sub.id);
    const second = fake.invoice({ account, subscription: sub.id, amount: 3100 });
    await deliver(api, path, fake.event('invoice.paid', second), secret);

    const list = await api.get(`/api/v1/clients/${client.id}/payments`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.payments.map((p: { invoice_id: string }) => p.invoice_id)).toEqual([
      second.id,
      invoice.id,
    ]);
    expect(list.body.payments[1]).toMatchObject({
      client_id: client.id,
      plan_id: plan.id,
      amount: 2900,
      currency: 'usd',
      subscription_id: sub.id,
      livemode: false,
      hosted_invoice_url: invoice.hosted_invoice_url,
    });
    const events = await outbox(api, 'payment.received');
    expect(events).toHaveLength(2);
    expect(events[0]!.data.payment).toEqual(list.body.payments[1]);
    const paged = await api.get(`/api/v1/clients/${client.id}/payments?limit=1&offset=1`);
    expect(paged.body.payments.map((p: { invoice_id: string }) => p.invoice_id)).toEqual([invoice.id]);
  });

  it('keeps another organization’s payments out of sight', async () => {
    const { client, sub, path, secret, account } = await subscribed();
    await deliver(
      api,
      path,
      fake.event('invoice.paid', fake.invoice({ account, subscription: sub.id })),
      secret,
    );
    const other = await api.newOrg('Other');
    const res = await api.get(`/api/v1/clients/${client.id}/payments`, { key: other.key });
    expect(res.status).toBe(404);
  });
});
