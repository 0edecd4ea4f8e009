// The fake Stripe through the official `stripe` library, as the billing code will use it: every
// endpoint answers in the shapes the library expects, errors map to the library's error classes,
// objects stay per account, and the events it builds verify with the library's webhook check.
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeStripe, parseForm, signedPayload } from './fake-stripe.ts';

const fake = await new FakeStripe().start();
afterAll(() => fake.close());
const options = { ...fake.clientOptions, maxNetworkRetries: 0 };
const stripe = new Stripe('rk_test_abcdefghij', options);
const platform = fake.accountFor('rk_test_abcdefghij');
const { errors } = Stripe;

const PRICE = { unit_amount: 2900, currency: 'EUR', recurring: { interval: 'month' as const } };

/** A product, a monthly price of it and a customer, on the platform account. */
async function catalog() {
  const product = await stripe.products.create({ name: 'Pro', metadata: { plan: 'pro' } });
  const price = await stripe.prices.create({ ...PRICE, product: product.id });
  const customer = await stripe.customers.create({ email: 'a@example.com', name: 'A', metadata: { c: '1' } });
  return { product, price, customer };
}

describe('the fake Stripe', () => {
  it('parses bracket form encoding into nested objects and arrays', () => {
    const parsed = parseForm('items[0][price]=p&items[0][quantity]=1&m[c]=abc&e[0]=a&e[1]=b');
    expect(parsed).toEqual({ items: [{ price: 'p', quantity: '1' }], m: { c: 'abc' }, e: ['a', 'b'] });
  });

  it('answers the account of a valid key and refuses an invalid or revoked one', async () => {
    fake.accountName = 'Moon Agency';
    const account = await stripe.accounts.retrieve(null);
    expect(account).toMatchObject({ id: platform, business_profile: { name: 'Moon Agency' } });
    expect(account.settings?.dashboard.display_name).toBe('Moon Agency');
    const bad = new Stripe('sk_test_short', options);
    await expect(bad.accounts.retrieve(null)).rejects.toBeInstanceOf(errors.StripeAuthenticationError);
    fake.revokedKeys.add('sk_live_revoked123');
    const revoked = new Stripe('sk_live_revoked123', options).accounts.retrieve(null);
    await expect(revoked).rejects.toThrow(/Invalid API Key provided/);
    expect(fake.find('GET', '/v1/account').at(-1)).toMatchObject({ key: 'sk_live_revoked123' });
  });

  it('creates and deletes webhook endpoints, each with its own secret', async () => {
    const endpoint = await stripe.webhookEndpoints.create({
      url: 'https://agency.example/stripe',
      enabled_events: ['invoice.paid', 'customer.subscription.updated'],
      metadata: { installation: 'x' },
    });
    expect(endpoint).toMatchObject({ object: 'webhook_endpoint', status: 'enabled', livemode: false });
    expect(endpoint.id).toMatch(/^we_[A-Za-z0-9]{14}$/);
    expect(endpoint.enabled_events).toEqual(['invoice.paid', 'customer.subscription.updated']);
    expect(Buffer.from(endpoint.secret!.slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(fake.find('POST', '/v1/webhook_endpoints')[0]!.body.metadata).toEqual({ installation: 'x' });
    const deleted = await stripe.webhookEndpoints.del(endpoint.id);
    expect(deleted).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    const again = stripe.webhookEndpoints.del(endpoint.id);
    await expect(again).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('keeps products, prices and customers, and updates them', async () => {
    const { product, price, customer } = await catalog();
    expect(price).toMatchObject({ object: 'price', product: product.id, unit_amount: 2900, currency: 'eur' });
    expect(price.recurring).toMatchObject({ interval: 'month', interval_count: 1 });
    const renamed = await stripe.products.update(product.id, { name: 'Pro+', metadata: { plan: '' } });
    expect(renamed).toMatchObject({ name: 'Pro+', active: true });
    expect(renamed.metadata).toEqual({});
    expect(await stripe.prices.update(price.id, { active: false })).toMatchObject({ active: false });
    expect((await stripe.prices.retrieve(price.id)).active).toBe(false);
    await stripe.customers.update(customer.id, { name: 'B', metadata: { d: '2' } });
    const kept = await stripe.customers.retrieve(customer.id);
    expect(kept).toMatchObject({ email: 'a@example.com', name: 'B', metadata: { c: '1', d: '2' } });
  });

  it('opens checkout and portal sessions whose pages it serves', async () => {
    const { price, customer } = await catalog();
    const back = 'https://agency.example/billing';
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: 'client_1',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: back,
      cancel_url: back,
      subscription_data: { metadata: { client_id: 'c1' }, application_fee_percent: 5 },
      metadata: { client_id: 'client_1' },
    });
    expect(session).toMatchObject({ object: 'checkout.session', status: 'open', subscription: null });
    expect(session.url).toBe(`${fake.url}/c/pay/${session.id}`);
    expect(session.expires_at - Date.now() / 1000).toBeGreaterThan(86_000);
    const { subscription_data } = fake.find('POST', '/v1/checkout/sessions').at(-1)!.body;
    expect(subscription_data).toEqual({ metadata: { client_id: 'c1' }, application_fee_percent: '5' });
    expect(await (await fetch(session.url!)).text()).toContain('<h1>Fake Stripe Checkout</h1>');
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: back });
    expect(portal).toMatchObject({ object: 'billing_portal.session', return_url: back });
    expect((await fetch(portal.url)).status).toBe(200);
  });

  it('retrieves and updates a subscription made by subscribe()', async () => {
    const { product, price, customer } = await catalog();
    const made = fake.subscribe({ account: platform, customer: customer.id, price: price.id });
    const subscription = await stripe.subscriptions.retrieve(made.id);
    const item = subscription.items.data[0]!;
    expect(subscription).toMatchObject({ status: 'active', customer: customer.id });
    expect(item.price.id).toBe(price.id);
    const { current_period_start: start, current_period_end: end } = item;
    fake.renew(made.id);
    const other = await stripe.prices.create({ ...PRICE, product: product.id, unit_amount: 3900 });
    const updated = await stripe.subscriptions.update(made.id, {
      items: [{ id: item.id, price: other.id }],
      proration_behavior: 'none',
      metadata: { plan: 'pro' },
    });
    const [changed] = updated.items.data;
    expect(changed).toMatchObject({ price: { id: other.id, unit_amount: 3900 }, current_period_start: end });
    expect(end).toBeGreaterThan(start);
    expect(fake.find('POST', `/v1/subscriptions/${made.id}`)[0]!.body.proration_behavior).toBe('none');
    expect(fake.setSubscriptionStatus(made.id, 'past_due').status).toBe('past_due');
  });

  it('keeps objects per account: another account’s id is a 404, stripeAccount routes', async () => {
    const connected = { stripeAccount: 'acct_connected1' };
    const customer = await stripe.customers.create({ email: 'c@example.com' }, connected);
    expect(fake.accountOf(customer.id)).toBe('acct_connected1');
    expect(fake.find('POST', '/v1/customers').at(-1)!.account).toBe('acct_connected1');
    expect((await stripe.accounts.retrieve(null, {}, connected)).id).toBe('acct_connected1');
    expect(await stripe.customers.retrieve(customer.id, {}, connected)).toMatchObject({ id: customer.id });
    const elsewhere = stripe.customers.retrieve(customer.id);
    await expect(elsewhere).rejects.toBeInstanceOf(errors.StripeInvalidRequestError);
    await expect(elsewhere).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('exchanges an issued OAuth code once, and deauthorizes', async () => {
    const code = fake.issueConnectCode('acct_oauth1');
    const token = await stripe.oauth.token({ grant_type: 'authorization_code', code });
    expect(token).toMatchObject({ stripe_user_id: 'acct_oauth1', scope: 'read_write', livemode: false });
    expect((await new Stripe(token.access_token!, options).accounts.retrieve(null)).id).toBe('acct_oauth1');
    const reused = stripe.oauth.token({ grant_type: 'authorization_code', code });
    await expect(reused).rejects.toBeInstanceOf(errors.StripeInvalidGrantError);
    const gone = await stripe.oauth.deauthorize({ client_id: 'ca_test123', stripe_user_id: 'acct_oauth1' });
    expect(gone).toMatchObject({ stripe_user_id: 'acct_oauth1' });
  });

  it('builds signed events the library verifies, and a tampered payload fails', async () => {
    const { price, customer } = await catalog();
    const metadata = { client_id: 'c1' };
    const sub = fake.subscribe({ account: platform, customer: customer.id, price: price.id, metadata });
    const invoice = fake.invoice({ account: platform, subscription: sub.id });
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 2900, currency: 'eur' });
    expect(invoice.parent.subscription_details).toEqual({ subscription: sub.id, metadata });
    expect(invoice.lines.data[0].pricing.price_details.price).toBe(price.id);
    const event = fake.event('invoice.paid', invoice, { account: 'acct_x' });
    const { payload, header } = signedPayload(event, 'whsec_test');
    expect(event).toMatchObject({
      type: 'invoice.paid',
      account: 'acct_x',
      api_version: '2026-10-28.endive',
    });
    expect(stripe.webhooks.constructEvent(payload, header, 'whsec_test')).toEqual(event);
    const tampered = payload.replace('2900', '1');
    const check = () => stripe.webhooks.constructEvent(tampered, header, 'whsec_test');
    expect(check).toThrow(errors.StripeSignatureVerificationError);
  });

  it('answers an unknown endpoint 404, and records it', async () => {
    const raw = stripe.rawRequest('GET', '/v1/balance_settings_fake');
    await expect(raw).rejects.toMatchObject({ statusCode: 404 });
    expect(fake.find('GET', '/v1/balance_settings_fake')).toHaveLength(1);
  });
});
