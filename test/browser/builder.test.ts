// The builder in a real browser (Debian's Chromium through playwright-core) against a real server
// on loopback, with the builtin generator and a fake OpenAI-compatible model that can be made to
// hang: a project is created from the dashboard and opened in the builder; a prompt's progress
// arrives live and the preview shows the site; a hanging generation is stopped; an element of the
// preview is selected and its text edited in place; an earlier version is restored; the site is
// published, opened, published again and rolled back; the same at tablet width. The code editor
// is laid out and keeps what is typed. axe-core checks every state; the pages run under their own
// CSP, and nothing may be refused by it. UPDATE_SCREENSHOTS=1 writes them to docs/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createContainer, type Container } from '../../src/container.ts';
import { GenerationWorker } from '../../src/modules/generations/worker.ts';
import { buildServer } from '../../src/main.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { FakeOpenAi } from '../helpers/fake-openai.ts';
import { freePort } from '../helpers/server-process.ts';
import { checkPage as check, cspViolations, hasChromium, launchChromium } from '../helpers/browser.ts';

const PASSWORD = 'a long enough password';

let db: TestDatabase;
let ctx: Container;
let app: FastifyInstance;
let worker: GenerationWorker;
let browser: Browser;
let fake: FakeOpenAi;
let base: string;
let port: number;

beforeAll(async () => {
  if (!hasChromium) return;
  fake = await new FakeOpenAi().start();
  db = await createTestDatabase();
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createContainer(
    testConfig(db, { PUBLIC_URL: base, SITES_DOMAIN: `localhost:${port}`, AI_API_KEY: 'sk-test', AI_BASE_URL: fake.baseUrl, AI_MODELS: 'slow-model', AI_DEFAULT_MODEL: 'builtin', AI_TIMEOUT: '60s', GENERATION_POLL_INTERVAL: '50ms' }),
    { rateLimitKeyPrefix: `sw:test:${process.pid}:builder-browser` },
  );
  app = await buildServer(ctx);
  await app.listen({ port, host: '127.0.0.1' });
  worker = new GenerationWorker(ctx.database, ctx.providers, ctx.config);
  worker.start();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop(1_000);
  await app?.close();
  await ctx?.close();
  await db?.drop();
  await fake?.stop();
});

/** An agency with one client, its owner signed in to the dashboard in a fresh browser context. */
async function signedInAgency(width: number, height: number) {
  const org = await ctx.services.orgs.createOrg(`Northwind Studio ${width}`);
  const email = `owner-${width}@northwind.test`;
  await ctx.services.accounts.createMember({ email, password: PASSWORD, name: 'Nora Owner', orgId: org.id, role: 'owner' });
  await ctx.services.clients.create(org.id, { email: `luna-${width}@bakery.test`, name: 'Luna Bakery Ltd' });
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const csp = cspViolations(page);
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/`);
  return { org, page, context, csp };
}

const preview = (page: Page) => page.frameLocator('#preview');

/**
 * The code editor is laid out by its stylesheet: each of its first lines sits level with its line
 * number and just right of it (without the stylesheet the text fell below a column of numbers).
 * Polled: the editor measures its lines a frame after it is shown.
 */
async function expectLinesBesideNumbers(page: Page, lines: number): Promise<void> {
  const misplaced = async () => {
    const wrong: string[] = [];
    for (let n = 1; n <= lines; n++) {
      const number = page.locator('.cm-lineNumbers .cm-gutterElement').filter({ hasText: new RegExp(`^${n}$`), visible: true });
      const numberBox = await number.boundingBox();
      const lineBox = await page.locator('.cm-line').nth(n - 1).boundingBox();
      const gap = lineBox && numberBox ? lineBox.x - (numberBox.x + numberBox.width) : NaN;
      if (!(lineBox && numberBox && Math.abs(lineBox.y - numberBox.y) < 2 && gap >= 0 && gap < 40)) {
        wrong.push(`line ${n} at ${JSON.stringify(lineBox)}, its number at ${JSON.stringify(numberBox)}`);
      }
    }
    return wrong;
  };
  await expect.poll(misplaced).toEqual([]);
}

describe.runIf(hasChromium)('the builder in Chromium', () => {
  it.each([
    ['desktop', 1280, 800, ''],
    ['tablet', 820, 1180, '-tablet'],
  ])('at %s width: prompt, progress, preview, stop, select and edit, restore, publish, live site, rollback', async (_name, width, height, suffix) => {
    const shot = (name: string) => `${name}${suffix}`;
    const { org, page, context, csp } = await signedInAgency(width, height);
    await page.goto(`${base}/projects/new`);
    await page.getByLabel('Name').fill('Luna Bakery');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: 'Open in the builder' }).click();
    await page.waitForURL(/\/app\/projects\/[0-9a-f-]{36}$/);
    const projectId = page.url().split('/').at(-1)!;
    await page.getByText('Your site appears here as it is built.').waitFor();
    await check(page, shot('builder-empty'));

    // A prompt: its progress arrives as events, then the preview shows the site.
    await page.getByLabel('What should we build?').fill('A website for Luna Bakery in Bristol: sourdough, cakes and coffee');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#history [data-status="succeeded"]').waitFor({ timeout: 15_000 });
    // The events that arrived stay with the prompt, folded.
    const steps = await page.locator('#history .turn-steps li').allTextContents();
    expect(steps[0]).toMatch(/^Queued/);
    expect(steps).toContain('Running (builtin)');
    expect(steps.at(-1)).toMatch(/^Built|^Created|\w/);
    await preview(page).locator('h1').first().waitFor();
    expect(await preview(page).locator('body').textContent()).toContain('Luna');
    const original = (await preview(page).locator('h1').first().textContent())!;
    // The preview is on its own origin: the page cannot reach into it.
    const frameOrigin = await page.locator('#preview').evaluate((f: HTMLIFrameElement) => new URL(f.src).origin);
    expect(frameOrigin).toBe(`http://preview.localhost:${port}`);
    await check(page, shot('builder-generated'));

    // A generation that hangs is stopped: cancelled, and nothing changes.
    fake.reply({ kind: 'hang' });
    const before = (await ctx.services.versions.latest(org.id, projectId))!.number;
    await page.getByLabel('Model').selectOption('slow-model');
    await page.getByLabel('What should change?').fill('Rewrite everything in French');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    await page.locator('#progress-steps li', { hasText: 'Running' }).waitFor();
    await check(page, shot('builder-progress'));
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('#history [data-status="cancelled"]').waitFor();
    await page.locator('#notice').getByText('Stopped. No file was changed.').waitFor();
    expect((await ctx.services.versions.latest(org.id, projectId))!.number).toBe(before);
    await page.getByLabel('Model').selectOption('builtin');

    // Select the heading in the preview and edit its text in place: a new version.
    await page.getByRole('button', { name: 'Select an element' }).click();
    await preview(page).locator('h1').first().click();
    await page.locator('#selection:not([hidden])').waitFor();
    expect(await page.locator('#selection-tag').textContent()).toBe('<h1>');
    await check(page, shot('builder-selected'));
    await page.getByRole('button', { name: 'Edit its text' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Luna Bakery & Café');
    await page.keyboard.press('Enter');
    await page.locator('#notice').getByText(/Saved the text in index\.html/).waitFor();
    await preview(page).locator('h1', { hasText: 'Luna Bakery & Café' }).waitFor();

    // Versions: restore the first one; the edit is still there as a version.
    await page.getByRole('link', { name: 'Versions' }).click();
    await page.locator('#panel-versions:not([hidden])').waitFor();
    await check(page, shot('builder-versions'));
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.locator('#notice').getByText(/Restored version 1/).waitFor();
    await preview(page).locator('h1').first().waitFor();
    await preview(page).locator('h1', { hasText: original }).waitFor();

    // Publish, open the live site, publish the edit again, then roll back to the first deployment.
    await page.getByRole('link', { name: 'Publish', exact: true }).click();
    await page.locator('#panel-publish').getByRole('button', { name: 'Publish' }).click();
    await page.locator('#notice').getByText(/^Published at /).waitFor();
    const live = (await page.locator('#live-link').getAttribute('href'))!;
    const site = await context.newPage();
    const siteCsp = cspViolations(site);
    await site.goto(live);
    const firstTitle = await site.locator('h1').first().textContent();
    expect(firstTitle).toBe(original);
    await page.getByRole('link', { name: 'Versions' }).click();
    await page.getByRole('button', { name: 'Restore version 2' }).click();
    await page.locator('#notice').getByText(/Restored version 2/).waitFor();
    await page.getByRole('link', { name: 'Publish', exact: true }).click();
    await page.locator('#panel-publish').getByRole('button', { name: /Publish/ }).click();
    await page.locator('#notice').getByText(/^Published at /).waitFor();
    await site.reload();
    expect(await site.locator('h1').first().textContent()).toContain('Luna Bakery & Café');
    await check(page, shot('builder-publish'));
    await page.getByRole('button', { name: /Roll back to this/ }).first().click();
    await page.locator('#notice').getByText(/is live again/).waitFor();
    await site.reload();
    expect(await site.locator('h1').first().textContent()).toBe(firstTitle);

    // The code panel: the editor loads, and a save makes a version.
    await page.getByRole('link', { name: 'Code' }).click();
    await page.locator('.cm-editor').waitFor();
    await expectLinesBesideNumbers(page, 3);
    await check(page, shot('builder-code'));
    // Typing in the editor and Ctrl+S saves a version; the preview follows.
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('<!-- saved from the editor -->');
    await page.keyboard.press('Control+s');
    await page.locator('#notice').getByText('Saved index.html.').waitFor();
    const saved = (await ctx.services.files.get(org.id, projectId, 'index.html')).content;
    expect(saved).toContain('<!-- saved from the editor -->');
    expect(saved).not.toContain('\u00a0');
    // An image chosen (or dropped) is uploaded into images/.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await page.locator('#upload').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.locator('#notice').getByText('Added images/logo.png.').waitFor();
    await page.locator('#tree a[data-file="images/logo.png"]').waitFor();
    expect((await ctx.services.files.get(org.id, projectId, 'images/logo.png')).content).toBe(png.toString('base64'));

    // The preview pane alone, where the embeddable builder mounts it.
    await page.goto(`${base}/embed/projects/${projectId}/preview`);
    await preview(page).locator('h1').first().waitFor();
    await check(page, shot('builder-embed-preview'));
    expect(csp).toEqual([]);
    expect(siteCsp).toEqual([]);
    await context.close();
  }, 120_000);

  it('the code editor under the CSP: styled, and what is typed is saved as typed', async () => {
    const { org, page, context, csp } = await signedInAgency(1200, 800);
    const project = await ctx.services.projects.create(org.id, { client_email: 'luna-1200@bakery.test', name: 'Luna Code' });
    const css = '.hero h1 {\n  color: #1d2939;\n}\n\n.menu li {\n  margin: 0;\n}\n';
    await ctx.services.files.put(org.id, project.id, 'style.css', { content: css });
    await page.goto(`${base}/app/projects/${project.id}?tab=code&file=style.css`);
    await page.getByRole('textbox', { name: 'Code of style.css' }).waitFor();
    await expectLinesBesideNumbers(page, 7);
    await check(page);

    // Spaces typed between words, doubled and at the end of a line are plain spaces in the file.
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('a b');
    // Escape closes the completions offered for `b`, so that Enter breaks the line.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.keyboard.type('.hero  h2 { }  ');
    await page.keyboard.press('Control+s');
    await page.locator('#notice').getByText('Saved style.css.').waitFor();
    const saved = (await ctx.services.files.get(org.id, project.id, 'style.css')).content;
    expect(saved).toBe(`${css}a b\n.hero  h2 { }  `);
    expect(saved).not.toContain('\u00a0');
    expect(csp).toEqual([]);
    await context.close();
  }, 60_000);

  it('a reload in the middle of a generation resumes its progress', async () => {
    const { page, context, csp } = await signedInAgency(1024, 768);
    await page.goto(`${base}/projects/new`);
    await page.getByLabel('Name').fill('Harbour Yoga');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: 'Open in the builder' }).click();
    await page.waitForURL(/\/app\/projects\//);
    fake.reply({ kind: 'hang' });
    await page.getByLabel('Model').selectOption('slow-model');
    await page.getByLabel('What should we build?').fill('A yoga studio in Brighton');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#progress-steps li', { hasText: 'Running' }).waitFor();
    await page.reload();
    // After the reload the stream starts again from the first event.
    await page.locator('#progress-steps li', { hasText: 'Queued' }).waitFor();
    await page.locator('#progress-steps li', { hasText: 'Running' }).waitFor();
    await check(page, 'builder-resumed');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('#history [data-status="cancelled"]').waitFor();
    expect(csp).toEqual([]);
    await context.close();
  }, 60_000);
});
