// Client billing in Debian's Chromium, under the pages' real CSP (no bypass), against a real
// server on loopback and the fake Stripe API: an owner connects a restricted key and sends a
// payment link (real SMTP); the client signs in, opens Billing in its portal and Pay lands on the
// (fake) Checkout page; after the signed webhooks the dashboard shows the client `active` with its
// payment, and the `payment.received` delivery verifies with standardwebhooks. UPDATE_SCREENSHOTS=1
// writes the pages to docs/billing/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createContainer, type Container } from '../../src/container.ts';
import { createDispatcher, type Dispatcher } from '../../src/events/dispatcher.ts';
import { buildServer } from '../../src/main.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { Receiver, verify } from '../helpers/receiver.ts';
import { SmtpSink } from '../helpers/smtp.ts';
import { FakeStripe, signedPayload } from '../helpers/fake-stripe.ts';
import { TEST_SECRETS_KEY } from '../helpers/billing.ts';
import { freePort } from '../helpers/server-process.ts';
import { waitUntil } from '../helpers/wait.ts';
import { checkPage, cspViolations, hasChromium, launchChromium } from '../helpers/browser.ts';

const PASSWORD = 'a long enough password';
let db: TestDatabase;
let ctx: Container;
let app: FastifyInstance;
let dispatcher: Dispatcher;
let browser: Browser;
let smtp: SmtpSink;
let receiver: Receiver;
let fake: FakeStripe;
let base: string;

beforeAll(async () => {
  if (!hasChromium) return;
  smtp = await SmtpSink.start();
  receiver = await Receiver.start();
  fake = await new FakeStripe().start();
  db = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createContainer(
    testConfig(db, {
      PUBLIC_URL: base,
      SMTP_URL: smtp.url,
      SECRETS_KEY: TEST_SECRETS_KEY,
      STRIPE_API_URL: fake.url,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL: '20ms',
    }),
    { rateLimitKeyPrefix: `sw:test:${process.pid}:billing-browser` },
  );
  app = await buildServer(ctx);
  await app.listen({ port, host: '127.0.0.1' });
  dispatcher = createDispatcher(ctx.database, ctx.config);
  dispatcher.start();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await dispatcher?.stop(1_000);
  await app?.close();
  await ctx?.close();
  await db?.drop();
  await smtp?.close();
  await receiver?.close();
  await fake?.close();
});

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}

/** Sends a signed event to the connection's endpoint, as Stripe does. */
async function stripeSends(path: string, secret: string, event: object): Promise<number> {
  const { payload, header } = signedPayload(event, secret);
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
    body: payload,
  });
  return res.status;
}

describe.runIf(hasChromium)('client billing in Chromium', () => {
  it('connect, send a payment link, pay from the portal, see the payment', async () => {
    const { services } = ctx;
    const org = await services.orgs.createOrg('Acme Agency');
    const system = systemPrincipal(org.id);
    await services.accounts.createMember({
      email: 'owner@acme.test',
      password: PASSWORD,
      name: 'Ann Owner',
      orgId: org.id,
      role: 'owner',
    });
    const hook = await services.webhooks.create(system, {
      url: receiver.url('/hooks'),
      events: ['payment.received', 'client.updated'],
    });
    const plan = await services.plans.create(system, { name: 'Site care', price: 49, interval: 'monthly' });
    const client = await services.clients.create(system, {
      email: 'jane@bakery.test',
      name: 'Jane Doe',
      company: 'Jane Bakery',
      plan_id: plan.id,
    });

    const owner = await browser.newPage();
    const ownerCsp = cspViolations(owner);
    await signIn(owner, 'owner@acme.test');
    await owner.getByRole('link', { name: 'Billing' }).click();
    await owner.getByLabel('Restricted key').fill('rk_test_acmeagency2026');
    await owner.getByRole('button', { name: 'Check and connect' }).click();
    await expect.poll(() => owner.getByRole('status').first().textContent()).toMatch(/test mode/);
    await owner.getByLabel(/Publish a client's sites/).check();
    await owner.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => owner.getByRole('status').first().textContent()).toMatch(/saved/);
    await checkPage(owner, 'billing/settings');

    await owner.goto(`${base}/clients/${client.id}`);
    await owner.getByRole('button', { name: 'Send payment link' }).click();
    await expect
      .poll(() => owner.getByRole('status').first().textContent())
      .toMatch(/sent to jane@bakery.test/);
    const [mail] = await smtp.waitFor('jane@bakery.test');
    expect(mail!.text).toMatch(new RegExp(`${fake.url}/c/pay/cs_test_`));
    await checkPage(owner);

    // The client, in a browser of its own.
    await services.accounts.createUser({
      id: (
        await ctx.database.db
          .selectFrom('clients')
          .select('user_id')
          .where('id', '=', client.id)
          .executeTakeFirstOrThrow()
      ).user_id,
      email: client.email,
      password: PASSWORD,
      name: 'Jane Doe',
    });
    await services.clients.update(system, client.id, { status: 'active' });
    const portalContext = await browser.newContext();
    const portal = await portalContext.newPage();
    const portalCsp = cspViolations(portal);
    await signIn(portal, 'jane@bakery.test');
    await portal.getByRole('link', { name: 'Billing and payments' }).click();
    await expect.poll(() => portal.getByRole('heading', { level: 1 }).textContent()).toBe('Billing');
    await checkPage(portal, 'billing/portal-pay');
    await portal.getByRole('link', { name: 'Pay', exact: true }).click();
    await portal.waitForURL((url) => url.href.startsWith(`${fake.url}/c/pay/`));
    expect(await portal.getByRole('heading', { level: 1 }).textContent()).toBe('Fake Stripe Checkout');
    const session = [...fake.checkoutSessions.values()].at(-1)!;
    expect(portal.url()).toBe(session.url);

    // Stripe tells Sitewright: the checkout completed, the first invoice is paid.
    const connection = await services.billing.connections.get(system);
    const endpoint = [...fake.webhookEndpoints.values()].find((e) => e.url === connection!.webhook_url)!;
    const path = new URL(connection!.webhook_url).pathname;
    const sub = fake.subscribe({
      account: connection!.account_id,
      customer: session.customer,
      price: (await services.plans.get(system, plan.id)).stripe_price_id!,
    });
    const completed = fake.event('checkout.session.completed', { ...session, subscription: sub.id });
    expect(await stripeSends(path, endpoint.secret, completed)).toBe(200);
    const invoice = fake.invoice({ account: connection!.account_id, subscription: sub.id });
    expect(await stripeSends(path, endpoint.secret, fake.event('invoice.paid', invoice))).toBe(200);

    await owner.reload();
    const billing = owner.getByRole('region', { name: /Billing/ });
    await expect.poll(() => billing.textContent()).toMatch(/active/);
    expect(await billing.textContent()).toMatch(/\$49\.00/);
    expect(await billing.getByRole('link', { name: /Invoice/ }).getAttribute('href')).toBe(
      invoice.hosted_invoice_url,
    );
    await checkPage(owner, 'billing/client-payments');

    await portal.goto(`${base}/portal/billing`);
    expect(await portal.getByRole('link', { name: 'Manage billing' }).isVisible()).toBe(true);
    await checkPage(portal);

    const delivery = await waitUntil(
      () => receiver.at('/hooks').find((r) => JSON.parse(r.body).type === 'payment.received'),
      10_000,
      'the payment.received delivery',
    );
    const verified = verify(hook.secret, delivery);
    expect(verified.standard.data.payment).toMatchObject({
      client_id: client.id,
      plan_id: plan.id,
      amount: 4900,
      currency: 'usd',
      invoice_id: invoice.id,
      livemode: false,
    });
    expect(ownerCsp).toEqual([]);
    expect(portalCsp).toEqual([]);
    await portalContext.close();
  }, 60_000);
});
