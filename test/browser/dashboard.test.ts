// The people side in a real browser (Debian's Chromium through playwright-core) against a real
// server on loopback: a fresh install is set up, an API key is created and used, a client is
// created and invited (real SMTP), accepts in its own browser, becomes active (a webhook receives
// client.updated) and sees only its project in the portal; a key is revoked; the overview chart
// renders. axe-core checks every page, under the pages' own CSP, which refuses nothing of theirs;
// script payloads typed into forms never run. UPDATE_SCREENSHOTS=1 writes the main pages to docs/.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createContainer, type Container } from '../../src/container.ts';
import { createDispatcher, type Dispatcher } from '../../src/events/dispatcher.ts';
import { buildServer } from '../../src/main.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { Receiver } from '../helpers/receiver.ts';
import { FakeOpenAi } from '../helpers/fake-openai.ts';
import { SmtpSink } from '../helpers/smtp.ts';
import { freePort } from '../helpers/server-process.ts';
import { checkPage, cspViolations, hasChromium, launchChromium, SHOTS } from '../helpers/browser.ts';

// Typed into every text field; a screenshot run types plain text instead, for pictures a customer can read.
const XSS = SHOTS
  ? [' ', ' ']
  : [' <script>window.__xss=1</script>', ' "><img src=x onerror="window.__xss=1">'];
const PASSWORD = 'a long enough password';

let db: TestDatabase;
let ctx: Container;
let app: FastifyInstance;
let dispatcher: Dispatcher;
let browser: Browser;
let smtp: SmtpSink;
let receiver: Receiver;
let fake: FakeOpenAi;
let base: string;

beforeAll(async () => {
  if (!hasChromium) return;
  smtp = await SmtpSink.start();
  receiver = await Receiver.start();
  fake = await new FakeOpenAi().start();
  db = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createContainer(
    testConfig(db, {
      PUBLIC_URL: base,
      SMTP_URL: smtp.url,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL: '20ms',
    }),
    {
      rateLimitKeyPrefix: `sw:test:${process.pid}:browser`,
    },
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
  await fake?.stop();
});

/** axe-core on the page: no serious or critical violations; and no script payload ever ran. */
async function check(page: Page, shot?: string): Promise<void> {
  await checkPage(page, shot);
  expect(await page.evaluate(() => (window as any).__xss), page.url()).toBeUndefined();
}

describe.runIf(hasChromium)('the dashboard and the portal in Chromium', () => {
  it('set-up, key, client, invitation, portal, revocation', async () => {
    const agency = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await agency.newPage();
    const csp = cspViolations(page);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(base + '/');
    expect(page.url()).toBe(base + '/setup');
    await check(page, 'setup');
    await page.getByLabel('Agency name').fill(`Acme Agency${XSS[0]}`.trim());
    await page.getByLabel('Your name').fill(`Ann Owner${XSS[1]}`.trim());
    await page.getByLabel('Email').fill('owner@acme.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /create account/i }).click();
    // One optional step: an AI model, or the templates.
    await page.waitForURL(base + '/settings/ai-model?setup=1');
    await check(page, 'ai-model-setup');
    await expect.poll(() => page.getByRole('link', { name: 'Skip for now' }).isVisible()).toBe(true);
    // A keyless local endpoint (as Ollama is), offered beside the templates.
    await page.getByLabel('Endpoint URL').fill(fake.baseUrl);
    await page.getByLabel('Model', { exact: true }).fill('llama3.2');
    await page.getByLabel(/Use it for new sites/).uncheck();
    fake.reply({ kind: 'answer', content: 'OK' });
    await page.getByRole('button', { name: 'Test and connect' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toMatch(/Connected: llama3.2 answered the test call/);
    await check(page, 'ai-model');
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL(base + '/');
    await expect.poll(() => page.locator('svg.chart').count()).toBeGreaterThan(0);
    await check(page, 'dashboard-overview');

    // An API key, shown once, used against the API.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill(`Zapier${XSS[1]}`.trim());
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#new-key-value').inputValue();
    expect(key).toMatch(/^wk_/);
    await check(page, 'dashboard-keys');
    const auth = { authorization: `Bearer ${key}` };
    expect((await fetch(`${base}/api/v1/clients`, { headers: auth })).status).toBe(200);
    const hook = await fetch(`${base}/api/v1/webhooks`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url('/hooks'), events: ['client.updated'] }),
    });
    expect(hook.status).toBe(201);

    // Embedding: the origins that may frame the builder, and an embed key shown once.
    await page.getByRole('link', { name: 'Embedding' }).click();
    await page.getByLabel('Origins').fill('https://app.booking.example\nhttp://localhost:5173');
    await page.getByRole('button', { name: 'Save origins' }).click();
    await page.getByText('Saved the origins that may embed the builder.').waitFor();
    await page.getByLabel('Name').fill('Booking app');
    await page.getByRole('button', { name: 'Create an embed key' }).click();
    expect(await page.locator('#new-key-value').inputValue()).toMatch(/^wk_/);
    await check(page, 'dashboard-embedding');

    // A client, created and invited from the dashboard.
    await page.getByRole('link', { name: 'Clients' }).click();
    await check(page);
    await page.getByRole('link', { name: 'New client' }).click();
    await page.getByLabel('Email').fill('jane@bakery.test');
    await page.getByLabel('Name').fill(`Jane Doe${XSS[0]}`.trim());
    await page.getByLabel('Company').fill(`Jane Bakery${XSS[1]}`.trim());
    await page.getByRole('button', { name: 'Create client' }).click();
    await page.waitForURL(/\/clients\/[0-9a-f-]{36}$/);
    await check(page);
    const project = await fetch(`${base}/api/v1/projects`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ client_email: 'jane@bakery.test', name: 'Jane Bakery website' }),
    });
    expect(project.status).toBe(201);
    await fetch(`${base}/api/v1/clients`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'other@client.test' }),
    });
    await fetch(`${base}/api/v1/projects`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ client_email: 'other@client.test', name: 'Someone else’s site' }),
    });
    await page.reload();
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toContain('Invitation sent');
    await check(page, 'dashboard-client');
    await page.goto(base + '/clients');
    await check(page, 'dashboard-clients');

    // The client, in a browser of its own.
    const [mail] = await smtp.waitFor('jane@bakery.test');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/invitations\/[A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const clientContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const portal = await clientContext.newPage();
    const portalCsp = cspViolations(portal);
    await portal.goto(link);
    await check(portal, 'invitation-client');
    await portal.getByLabel('Choose a password').fill(PASSWORD);
    await portal.getByRole('button', { name: 'Create my account' }).click();
    await portal.waitForURL(base + '/portal');
    await expect.poll(() => portal.locator('main').textContent()).toContain('Jane Bakery website');
    expect(await portal.locator('main').textContent()).not.toContain('Someone else');
    await check(portal, 'portal');
    const clients = (await (await fetch(`${base}/api/v1/clients`, { headers: auth })).json()) as any;
    expect(clients.clients.find((c: any) => c.email === 'jane@bakery.test').status).toBe('active');
    const [delivery] = await receiver.waitFor('/hooks', 1, 10_000);
    expect(JSON.parse(delivery!.body)).toMatchObject({
      type: 'client.updated',
      data: { client: { status: 'active' }, previous_attributes: { status: 'invited' } },
    });

    // A colleague, invited as an admin, joins in a browser of their own and sees the agency's work.
    await page.goto(base + '/settings/members');
    await page.getByLabel('Email').fill('sam@acme.test');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('sam@acme.test');
    await check(page);
    const [invite] = await smtp.waitFor('sam@acme.test');
    expect(invite!.text).toContain('as an admin');
    const memberLink = /(http:\/\/127\.0\.0\.1:\d+\/invitations\/[A-Za-z0-9_-]+)/.exec(invite!.text)![1]!;
    const colleagueContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const colleague = await colleagueContext.newPage();
    const colleagueCsp = cspViolations(colleague);
    await colleague.goto(memberLink);
    await check(colleague, 'invitation-member');
    expect(await colleague.locator('main').textContent()).toContain('Join Acme Agency');
    await colleague.getByLabel('Your name').fill(`Sam Admin${XSS[0]}`.trim());
    await colleague.getByLabel('Choose a password').fill(PASSWORD);
    await colleague.getByRole('button', { name: 'Create my account' }).click();
    await colleague.waitForURL(base + '/');
    await expect.poll(() => colleague.locator('.notice').textContent()).toContain('You joined Acme Agency');
    await colleague.goto(base + '/clients');
    expect(await colleague.locator('main').textContent()).toContain('jane@bakery.test');
    await colleague.goto(base + '/settings/members');
    await check(colleague);
    expect(await colleague.locator('main').textContent()).toContain('owner@acme.test');
    // Used once: the link now says so, and the owner's page lists Sam as an admin.
    await colleague.goto(memberLink);
    await check(colleague, 'invitation-used');
    expect(await colleague.locator('h1').textContent()).toBe('Invitation');
    expect(await colleague.locator('main h2').textContent()).toContain('cannot be used');
    expect(await colleague.getByRole('link', { name: 'Go to your dashboard' }).count()).toBe(1);
    expect(colleagueCsp).toEqual([]);
    await colleagueContext.close();
    await page.goto(base + '/settings/members');
    await expect.poll(() => page.locator('main').textContent()).toContain('Sam Admin');

    // Revoking the key: the API refuses it at the next request.
    await page.goto(base + '/settings/keys');
    page.once('dialog', (d) => void d.accept());
    await page
      .getByRole('row', { name: /Zapier/ })
      .getByRole('button', { name: /Revoke/ })
      .click();
    await expect.poll(() => page.locator('.notice').textContent()).toContain('revoked');
    expect((await fetch(`${base}/api/v1/clients`, { headers: auth })).status).toBe(401);
    await page.goto(base + '/sign-in');
    expect(page.url()).toBe(base + '/');
    expect(errors).toEqual([]);

    // Every other page of the dashboard passes axe too.
    const key2 = (
      await ctx.services.orgs.createKey((await ctx.services.orgs.listOrgs())[0]!.id, ['read'], 'reader')
    ).key;
    const projectId = (
      (await (
        await fetch(`${base}/api/v1/projects?limit=1`, { headers: { authorization: `Bearer ${key2}` } })
      ).json()) as any
    ).projects[0].id;
    // One backup made, so that the Backups page lists it.
    await ctx.services.backups.backupNow([mkdtempSync(join(tmpdir(), 'sitewright-shot-backups-'))], false);
    for (const [path, shot] of [
      ['/projects', 'dashboard-projects'],
      [`/projects/${projectId}`, 'dashboard-project'],
      [`/projects/${projectId}/submissions`, undefined],
      ['/analytics', 'dashboard-analytics'],
      ['/templates', undefined],
      ['/plans', 'dashboard-plans'],
      ['/settings/webhooks', undefined],
      ['/settings/members', 'dashboard-members'],
      ['/settings/organization', undefined],
      ['/settings/backups', 'dashboard-backups'],
      ['/docs/api', undefined],
      ['/account', undefined],
    ] as const) {
      await page.goto(base + path);
      await check(page, shot);
    }

    // Signed out, the sign-in page.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(base + '/sign-in');
    await check(page, 'sign-in');
    // Every page above ran under its Content Security Policy, and nothing of theirs was refused.
    expect(csp).toEqual([]);
    expect(portalCsp).toEqual([]);
    await agency.close();
    await clientContext.close();
  }, 90_000);
});
