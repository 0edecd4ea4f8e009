// The build link in Chromium, under the pages' real CSP, against a real server on loopback with
// the builtin generator and a real SMTP server: a visitor writes a long prompt, signs up, follows
// the mailed link and lands in the builder with the whole prompt; an agency member chooses the
// client; a client signs in on the link's page and its build starts. axe-core checks each page;
// UPDATE_SCREENSHOTS=1 writes them to docs/.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createContainer, type Container } from '../../src/container.ts';
import { GenerationWorker } from '../../src/modules/generations/worker.ts';
import { buildServer } from '../../src/main.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { freePort } from '../helpers/server-process.ts';
import { SmtpSink } from '../helpers/smtp.ts';
import { checkPage as check, cspViolations, hasChromium, launchChromium } from '../helpers/browser.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const PASSWORD = 'a long enough password';
const LONG =
  `A website for Harbour Yoga in Brighton. ${'Morning flow, evening yin and teacher training. '.repeat(500)}`
    .slice(0, 20_000)
    .trim();

let db: TestDatabase;
let ctx: Container;
let app: FastifyInstance;
let worker: GenerationWorker;
let browser: Browser;
let smtp: SmtpSink;
let base: string;

beforeAll(async () => {
  if (!hasChromium) return;
  smtp = await SmtpSink.start();
  db = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createContainer(
    testConfig(db, {
      PUBLIC_URL: base,
      SITES_DOMAIN: `localhost:${port}`,
      SMTP_URL: smtp.url,
      GENERATION_POLL_INTERVAL: '50ms',
    }),
    { rateLimitKeyPrefix: `sw:test:${process.pid}:build-link-browser` },
  );
  app = await buildServer(ctx);
  await app.listen({ port, host: '127.0.0.1' });
  worker = new GenerationWorker(ctx.database, ctx.services.aiModels, ctx.config);
  worker.start();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop(1_000);
  await app?.close();
  await ctx?.close();
  await db?.drop();
  await smtp?.close();
});

async function agency(name: string) {
  const org = await ctx.services.orgs.createOrg(name);
  const email = `owner@${org.id.slice(0, 8)}.test`;
  await ctx.services.accounts.createMember({
    email,
    password: PASSWORD,
    name: 'Nora Owner',
    orgId: org.id,
    role: 'owner',
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const csp = cspViolations(page);
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/`);
  return { org, page, context, csp };
}

describe.runIf(hasChromium)('the build link in Chromium', () => {
  it('a visitor signs up, confirms the mailed link and lands in the builder with the whole prompt', async () => {
    const { org, page: owner, context: ownerContext, csp: ownerCsp } = await agency('Harbour Agency');
    const plan = await ctx.services.plans.create(systemPrincipal(org.id), {
      name: 'Starter',
      price: 0,
      max_sites: 2,
    });
    await ctx.services.plans.update(systemPrincipal(org.id), plan.id, { is_default: true });
    await owner.goto(`${base}/settings/build-link`);
    await owner.getByLabel(/Visitors without an account may sign up/).check();
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.locator('.notice').waitFor();
    await owner.getByLabel('Preset prompt (optional)').fill('A bakery in Bristol');
    await owner.getByRole('button', { name: 'Make the link' }).click();
    expect(await owner.locator('#build-url').inputValue()).toContain('prompt=A+bakery+in+Bristol');
    await check(owner, 'build-link-generator');
    expect(ownerCsp).toEqual([]);
    await ownerContext.close();

    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await visitor.newPage();
    const csp = cspViolations(page);
    await page.goto(`${base}/build?org=${org.id}`);
    await page.getByLabel('Your website').fill(LONG);
    await page.getByRole('button', { name: 'Build my website' }).click();
    await page.getByRole('button', { name: 'Create my account' }).waitFor();
    await check(page, 'build-link-visitor');
    await page.getByLabel('Your name').fill('Hana Visitor');
    await page.locator('#email').fill('hana@harbour.test');
    await page.locator('#password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await check(page, 'build-link-check-email');
    const [mail] = await smtp.waitFor('hana@harbour.test');
    await page.goto(/(http:\/\/\S+\/sign-up\/confirm\/\S+)/.exec(mail!.text)![1]!);
    await page.getByLabel('The password you chose when signing up').fill(PASSWORD);
    await check(page, 'build-link-confirm');
    await page.getByRole('button', { name: 'Confirm and build my website' }).click();
    await page.waitForURL(/\/app\/projects\/[0-9a-f-]{36}$/);
    await page.locator('#history [data-status="succeeded"]').waitFor({ timeout: 15_000 });
    const projectId = page.url().split('/').at(-1)!;
    const [generation] = (await ctx.services.generations.list(systemPrincipal(org.id), projectId, 1, 0))
      .generations;
    expect(generation!.prompt).toBe(LONG);
    const client = (
      await ctx.services.clients.search(systemPrincipal(org.id), { q: 'hana@harbour.test' }, 1, 0)
    ).clients[0]!;
    expect(client.status).toBe('active');
    expect(csp).toEqual([]);
    await visitor.close();
  }, 60_000);

  it('an agency member chooses the client; a client signs in on the link’s page and its build starts', async () => {
    const { org, page, context, csp } = await agency('Leeds Agency');
    await page.goto(`${base}/build?prompt=${encodeURIComponent('A dental clinic in Leeds')}`);
    await page.getByLabel('Client').selectOption({ label: 'A new client…' });
    await page.getByLabel('Email').fill('smile@leeds.test');
    await page.getByLabel('Name').fill('Leeds Smile Clinic');
    await check(page, 'build-link-choose');
    await page.getByRole('button', { name: 'Create the project and build' }).click();
    await page.waitForURL(/\/app\/projects\//);
    await page.locator('#history [data-status="succeeded"]').waitFor({ timeout: 15_000 });
    expect(csp).toEqual([]);
    await context.close();

    const client = await ctx.services.clients.create(systemPrincipal(org.id), {
      email: 'luna-portal@bakery.test',
      name: 'Luna',
    });
    const row = await ctx.database.db
      .selectFrom('clients')
      .select('user_id')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    await ctx.services.accounts.createUser({
      id: row.user_id,
      email: client.email,
      password: PASSWORD,
      name: 'Luna',
    });
    const own = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const portal = await own.newPage();
    const portalCsp = cspViolations(portal);
    await portal.goto(
      `${base}/build?prompt=${encodeURIComponent('A bakery in Bristol with a menu')}&org=${org.id}`,
    );
    await portal.getByLabel('Email').fill(client.email);
    await portal.getByLabel('Password').fill(PASSWORD);
    await portal.getByRole('button', { name: 'Sign in and build' }).click();
    await portal.waitForURL(/\/app\/projects\//);
    await portal.locator('#history [data-status="succeeded"]').waitFor({ timeout: 15_000 });
    expect(await portal.locator('.back').textContent()).toContain('Your website');
    expect(portalCsp).toEqual([]);
    await own.close();
  }, 60_000);
});
