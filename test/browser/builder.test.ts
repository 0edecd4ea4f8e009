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
import { LoopbackDns } from '../helpers/dns-server.ts';
import { freePort } from '../helpers/server-process.ts';
import { checkPage as check, cspViolations, hasChromium, launchChromium, SHOTS } from '../helpers/browser.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';
import { photo, tinyPng } from '../helpers/images.ts';
import { untilSucceeded } from '../helpers/wait.ts';

const PASSWORD = 'a long enough password';

let db: TestDatabase;
let ctx: Container;
let app: FastifyInstance;
let worker: GenerationWorker;
let browser: Browser;
let fake: FakeOpenAi;
let base: string;
let port: number;
let dns: LoopbackDns;

beforeAll(async () => {
  if (!hasChromium) return;
  fake = await new FakeOpenAi().start();
  dns = await new LoopbackDns().start();
  db = await createTestDatabase();
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createContainer(
    testConfig(db, {
      PUBLIC_URL: base,
      SITES_DOMAIN: `localhost:${port}`,
      AI_API_KEY: 'sk-test',
      AI_BASE_URL: fake.baseUrl,
      AI_MODELS: 'slow-model',
      AI_DEFAULT_MODEL: 'builtin',
      AI_TIMEOUT: '60s',
      GENERATION_POLL_INTERVAL: '50ms',
      DNS_SERVERS: dns.address,
    }),
    { rateLimitKeyPrefix: `sw:test:${process.pid}:builder-browser` },
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
  await fake?.stop();
  await dns?.stop();
});

/** An agency with one client, its owner signed in to the dashboard in a fresh browser context. */
async function signedInAgency(width: number, height: number) {
  const org = await ctx.services.orgs.createOrg(`Northwind Studio ${width}`);
  const email = `owner-${width}@northwind.test`;
  await ctx.services.accounts.createMember({
    email,
    password: PASSWORD,
    name: 'Nora Owner',
    orgId: org.id,
    role: 'owner',
  });
  await ctx.services.clients.create(systemPrincipal(org.id), {
    email: `luna-${width}@bakery.test`,
    name: 'Luna Bakery Ltd',
  });
  const context = await browser.newContext({ viewport: { width, height } });
  // A step that cannot happen fails naming itself, well before the test's own time runs out.
  context.setDefaultTimeout(20_000);
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
      const number = page
        .locator('.cm-lineNumbers .cm-gutterElement')
        .filter({ hasText: new RegExp(`^${n}$`), visible: true });
      const numberBox = await number.boundingBox();
      const lineBox = await page
        .locator('.cm-line')
        .nth(n - 1)
        .boundingBox();
      const gap = lineBox && numberBox ? lineBox.x - (numberBox.x + numberBox.width) : NaN;
      if (!(lineBox && numberBox && Math.abs(lineBox.y - numberBox.y) < 2 && gap >= 0 && gap < 40)) {
        wrong.push(`line ${n} at ${JSON.stringify(lineBox)}, its number at ${JSON.stringify(numberBox)}`);
      }
    }
    return wrong;
  };
  await expect.poll(misplaced).toEqual([]);
}

/**
 * Starts an in-place edit of the selected element and waits until the preview has focused it:
 * the focus travels by message into the preview, and keys pressed before it arrives would go to
 * the builder's page (under load they did, and the typed text came out cut).
 */
/** Selects an element of the preview, again until the frame (new after a reload) has heard the builder. */
async function selectInPreview(page: Page, selector: string) {
  for (let tries = 0; ; tries++) {
    await preview(page).locator(selector).first().click();
    const shown = await page
      .locator('#selection-tag', { hasText: `<${selector}>` })
      .waitFor({ timeout: 1_000 })
      .then(
        () => true,
        () => false,
      );
    if (shown || tries === 10) return;
  }
}

async function editText(page: Page) {
  await page.getByRole('button', { name: 'Edit its text' }).click();
  const editable = preview(page).locator('[contenteditable]');
  await editable.waitFor();
  await expect
    .poll(() => editable.evaluate((element) => element === element.ownerDocument.activeElement))
    .toBe(true);
}

describe.runIf(hasChromium)('the builder in Chromium', () => {
  it.each([
    ['desktop', 1280, 800, ''],
    ['tablet', 820, 1180, '-tablet'],
  ])(
    'at %s width: prompt, progress, preview, stop, select and edit, restore, publish, live site, rollback',
    async (_name, width, height, suffix) => {
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
      await page
        .getByLabel('What should we build?')
        .fill('A website for Luna Bakery in Bristol: sourdough, cakes and coffee');
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
      const frameOrigin = await page
        .locator('#preview')
        .evaluate((f: HTMLIFrameElement) => new URL(f.src).origin);
      expect(frameOrigin).toBe(`http://preview.localhost:${port}`);
      await check(page, shot('builder-generated'));

      // A generation that hangs is stopped: cancelled, and nothing changes.
      fake.reply({ kind: 'hang' });
      const before = (await ctx.services.versions.latest(systemPrincipal(org.id), projectId))!.number;
      await page.getByLabel('Model').selectOption('slow-model');
      await page.getByLabel('What should change?').fill('Rewrite everything in French');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('button', { name: 'Stop' }).waitFor();
      await page.locator('#progress-steps li', { hasText: 'Running' }).waitFor();
      await check(page, shot('builder-progress'));
      await page.getByRole('button', { name: 'Stop' }).click();
      await page.locator('#history [data-status="cancelled"]').waitFor();
      await page.locator('#notice').getByText('Stopped. No file was changed.').waitFor();
      expect((await ctx.services.versions.latest(systemPrincipal(org.id), projectId))!.number).toBe(before);
      await page.getByLabel('Model').selectOption('builtin');

      // Select the heading in the preview and edit its text in place: a new version.
      await page.getByRole('button', { name: 'Select an element' }).click();
      await preview(page).locator('h1').first().click();
      await page.locator('#selection:not([hidden])').waitFor();
      expect(await page.locator('#selection-tag').textContent()).toBe('<h1>');
      await check(page, shot('builder-selected'));
      await editText(page);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Luna Bakery & Café');
      await page.keyboard.press('Enter');
      await page
        .locator('#notice')
        .getByText(/Saved the text in index\.html/)
        .waitFor();
      await preview(page).locator('h1', { hasText: 'Luna Bakery & Café' }).waitFor();

      // Versions: restore the first one; the edit is still there as a version.
      await page.getByRole('link', { name: 'Versions' }).click();
      await page.locator('#panel-versions:not([hidden])').waitFor();
      await check(page, shot('builder-versions'));
      await page.getByRole('button', { name: 'Restore version 1' }).click();
      await page
        .locator('#notice')
        .getByText(/Restored version 1/)
        .waitFor();
      await preview(page).locator('h1').first().waitFor();
      await preview(page).locator('h1', { hasText: original }).waitFor();

      // Publish, open the live site, publish the edit again, then roll back to the first deployment.
      await page.getByRole('link', { name: 'Publish', exact: true }).click();
      await page.locator('#panel-publish').getByRole('button', { name: 'Publish' }).click();
      await page
        .locator('#notice')
        .getByText(/^Published at /)
        .waitFor();
      const live = (await page.locator('#live-link').getAttribute('href'))!;
      const site = await context.newPage();
      const siteCsp = cspViolations(site);
      await site.goto(live);
      const firstTitle = await site.locator('h1').first().textContent();
      expect(firstTitle).toBe(original);
      await page.getByRole('link', { name: 'Versions' }).click();
      await page.getByRole('button', { name: 'Restore version 2' }).click();
      await page
        .locator('#notice')
        .getByText(/Restored version 2/)
        .waitFor();
      await page.getByRole('link', { name: 'Publish', exact: true }).click();
      await page
        .locator('#panel-publish')
        .getByRole('button', { name: /Publish/ })
        .click();
      await page
        .locator('#notice')
        .getByText(/^Published at /)
        .waitFor();
      await site.reload();
      expect(await site.locator('h1').first().textContent()).toContain('Luna Bakery & Café');
      await check(page, shot('builder-publish'));
      await page
        .getByRole('button', { name: /Roll back to this/ })
        .first()
        .click();
      await page
        .locator('#notice')
        .getByText(/is live again/)
        .waitFor();
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
      const saved = (await ctx.services.files.get(systemPrincipal(org.id), projectId, 'index.html')).content;
      expect(saved).toContain('<!-- saved from the editor -->');
      expect(saved).not.toContain('\u00a0');
      // An image chosen (or dropped) is uploaded into images/.
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      );
      await page.locator('#upload').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
      await page.locator('#notice').getByText('Added images/logo.png.').waitFor();
      await page.locator('#tree a[data-file="images/logo.png"]').waitFor();
      expect(
        (await ctx.services.files.get(systemPrincipal(org.id), projectId, 'images/logo.png')).content,
      ).toBe(png.toString('base64'));

      // The preview pane alone, where the embeddable builder mounts it.
      await page.goto(`${base}/embed/projects/${projectId}/preview`);
      await preview(page).locator('h1').first().waitFor();
      await check(page, shot('builder-embed-preview'));
      expect(csp).toEqual([]);
      expect(siteCsp).toEqual([]);
      await context.close();
    },
    120_000,
  );

  it('the code editor under the CSP: styled, and what is typed is saved as typed', async () => {
    const { org, page, context, csp } = await signedInAgency(1200, 800);
    const project = await ctx.services.projects.create(systemPrincipal(org.id), {
      client_email: 'luna-1200@bakery.test',
      name: 'Luna Code',
    });
    const css = '.hero h1 {\n  color: #1d2939;\n}\n\n.menu li {\n  margin: 0;\n}\n';
    await ctx.services.files.put(systemPrincipal(org.id), project.id, 'style.css', { content: css });
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
    const saved = (await ctx.services.files.get(systemPrincipal(org.id), project.id, 'style.css')).content;
    expect(saved).toBe(`${css}a b\n.hero  h2 { }  `);
    expect(saved).not.toContain('\u00a0');
    expect(csp).toEqual([]);
    await context.close();
  }, 60_000);

  it('site settings: filled in under the CSP, shown by the preview at once and in the shared-link card', async () => {
    const { org, page, context, csp } = await signedInAgency(1270, 1000);
    const asOwner = systemPrincipal(org.id);
    const project = await ctx.services.projects.create(asOwner, {
      client_email: 'luna-1270@bakery.test',
      name: 'Luna Bakery',
    });
    const generation = await ctx.services.generations.create(asOwner, project.id, {
      prompt: 'A website for Luna Bakery in Bristol: sourdough, cakes and coffee',
    });
    await untilSucceeded(() =>
      ctx.services.generations.get(asOwner, { projectId: project.id, generationId: generation.id }),
    );
    // A picture for shared links, drawn by the browser itself.
    const art = await context.newPage();
    const dataUrl = await art.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 1200;
      canvas.height = 630;
      const g = canvas.getContext('2d')!;
      const fill = g.createLinearGradient(0, 0, 1200, 630);
      fill.addColorStop(0, '#7c2d12');
      fill.addColorStop(1, '#f59e0b');
      g.fillStyle = fill;
      g.fillRect(0, 0, 1200, 630);
      g.fillStyle = '#fff7ed';
      g.font = 'bold 96px sans-serif';
      g.fillText('Luna Bakery', 90, 330);
      g.font = '44px sans-serif';
      g.fillText('Sourdough · cakes · coffee', 94, 410);
      return canvas.toDataURL('image/png');
    });
    await art.close();
    const png = Buffer.from(dataUrl.split(',')[1]!, 'base64');
    await ctx.services.files.putBytes(asOwner, project.id, 'images/share.png', png);

    await page.goto(`${base}/app/projects/${project.id}`);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Site name').fill('Luna Bakery');
    await page.getByLabel('Language').fill('en-GB');
    await page
      .getByLabel('Description')
      .fill('Sourdough, cakes and coffee on Gloucester Road, baked every morning.');
    await page.getByLabel('Picture for shared links').selectOption('images/share.png');
    await page.getByLabel('Address', { exact: true }).fill('112 Gloucester Road, Bristol BS7 8BA');
    await page.getByLabel('Phone').fill('+44 117 496 0321');
    await page.getByLabel('Opening hours').fill('Tu-Sa 08:00-16:00\nSundays 9 to 1');
    await page.getByLabel('The agency’s members').check();
    await page.getByRole('button', { name: 'Save settings' }).press('Enter');
    await page
      .locator('#notice')
      .getByText(/^Saved\./)
      .waitFor();
    expect(page.url()).toMatch(/\?tab=settings/);
    const saved = await ctx.services.siteSettings.get(asOwner, project.id);
    expect(saved).toMatchObject({
      site_name: 'Luna Bakery',
      language: 'en-GB',
      social_image: 'images/share.png',
      facts: { phone: '+44 117 496 0321', email: null, opening_hours: 'Tu-Sa 08:00-16:00\nSundays 9 to 1' },
      form_notify: ['client', 'members'],
      redirect_subdomain: false,
    });
    // The preview shows the page as it will go live: in the language set just now.
    await expect
      .poll(() => preview(page).locator('html').getAttribute('lang'), { timeout: 10_000 })
      .toBe('en-GB');
    // The shared-link card: the picture from the builder's own origin, the page's title and text.
    const card = page.locator('.share-card');
    await expect
      .poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth), {
        timeout: 10_000,
      })
      .toBe(1200);
    expect(await card.locator('.share-text').textContent()).toBe(
      'Sourdough, cakes and coffee on Gloucester Road, baked every morning.',
    );
    await check(page, 'builder-site-settings');
    expect((await card.boundingBox())!.height).toBeGreaterThan(200);
    if (SHOTS) await card.screenshot({ path: 'docs/shared-link-card.png' });
    // Each form the pages post to has rules of its own, set here too (by keyboard, as the
    // first save: nothing on the page can stand in the way of a key).
    const rules = page.locator('fieldset.form-rules', { hasText: 'The form “contact”' });
    const copy = rules.getByLabel('Send the visitor a copy of their message');
    await copy.focus({ timeout: 10_000 });
    await page.keyboard.press('Space');
    expect(await copy.isChecked()).toBe(true);
    await rules
      .getByLabel('Tell these instead of the recipients above')
      .fill('bookings@luna.test', { timeout: 10_000 });
    if (SHOTS) await rules.screenshot({ path: 'docs/builder-form-rules.png' });
    await page.getByRole('button', { name: 'Save settings' }).press('Enter', { timeout: 10_000 });
    await expect
      .poll(async () => (await ctx.services.siteSettings.get(asOwner, project.id)).forms, {
        timeout: 10_000,
      })
      .toEqual({ contact: { notify: ['bookings@luna.test'], visitor_copy: true } });
    expect(csp).toEqual([]);
    await context.close();
  }, 90_000);

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

/** A project of a client on its own plan, with its files written through the files service. */
async function clientProject(
  orgId: string,
  plan: Record<string, unknown>,
  files: Record<string, string> = {},
) {
  const created = await ctx.services.plans.create(systemPrincipal(orgId), {
    name: 'Starter',
    price: 10,
    ...plan,
  } as never);
  const client = await ctx.services.clients.create(systemPrincipal(orgId), {
    email: `client-${Math.random().toString(36).slice(2, 8)}@bakery.test`,
    name: 'Luna Bakery Ltd',
    plan_id: created.id,
  });
  const project = await ctx.services.projects.create(systemPrincipal(orgId), {
    client_email: client.email,
    name: 'Luna Bakery',
  });
  for (const [path, content] of Object.entries(files))
    await ctx.services.files.put(systemPrincipal(orgId), project.id, path, { content });
  return { project, client, plan: created };
}

describe.runIf(hasChromium)('the builder and what it trusts, in Chromium', () => {
  // A site whose own scripts try everything: posting selections and edits to the builder, taking
  // any port that passes by, saying `hello` with a channel of their own, and clicking and pressing
  // keys in the page. Its heading is shown in capitals by its stylesheet.
  const FORGER = `
    const heading = 'html > body:nth-child(2) > h1:nth-child(1)';
    const select = { sitewright: 1, type: 'select', file: 'index.html', selector: heading, tag: 'h1', text: 'Forged', html: '<h1>Forged</h1>', editable: true };
    const ask = { sitewright: 1, type: 'edit-request', file: 'index.html', selector: heading };
    const text = { sitewright: 1, type: 'text', file: 'index.html', selector: heading, text: 'Forged by the site' };
    const stolen = [];
    window.addEventListener('message', (event) => { for (const port of event.ports) stolen.push(port); }, true);
    const mine = new MessageChannel();
    mine.port1.onmessage = (event) => {
      const nonce = event.data && event.data.nonce;
      for (const message of [select, ask, text]) mine.port1.postMessage({ ...message, nonce });
    };
    parent.postMessage({ sitewright: 1, type: 'hello' }, '*', [mine.port2]);
    setInterval(() => {
      for (const message of [select, ask, text]) parent.postMessage(message, '*');
      for (const port of stolen) for (const message of [select, ask, text]) port.postMessage(message);
      const h1 = document.querySelector('h1');
      if (h1) {
        h1.click();
        h1.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      }
    }, 25);
  `;
  const PAGE =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Luna</title><script src="forge.js"></script><style>h1 { text-transform: uppercase; }</style></head><body><h1>Luna Bakery</h1><p>Fresh\n      bread</p></body></html>';

  it('a site whose own script posts forged selections and texts changes nothing; the person’s own edit is saved as typed', async () => {
    const { org, page, context, csp } = await signedInAgency(1250, 800);
    const { project } = await clientProject(
      org.id,
      { max_ai_messages_daily: 5 },
      { 'index.html': PAGE, 'forge.js': FORGER },
    );
    const edits: string[] = [];
    page.on('request', (request) => request.url().endsWith('/text') && edits.push(request.postData() ?? ''));
    await page.goto(`${base}/app/projects/${project.id}`);
    await preview(page).locator('h1').waitFor();
    const unchanged = async () => {
      expect((await ctx.services.files.get(systemPrincipal(org.id), project.id, 'index.html')).content).toBe(
        PAGE,
      );
      expect((await ctx.services.versions.list(systemPrincipal(org.id), project.id, 10, 0)).total).toBe(2);
      expect(edits).toEqual([]);
    };
    // The site's script runs for a while: nothing is selected, nothing is saved.
    await page.waitForTimeout(1_000);
    await unchanged();
    expect(await page.locator('#selection').isHidden()).toBe(true);
    // Selecting: still nothing but what the person clicks.
    await page.getByRole('button', { name: 'Select an element' }).click();
    await page.waitForTimeout(800);
    expect(await page.locator('#selection').isHidden()).toBe(true);
    await unchanged();
    await preview(page).locator('h1').click();
    await page.locator('#selection:not([hidden])').waitFor();
    expect(await page.locator('#selection-text').textContent()).toContain('LUNA BAKERY');
    // In the person's edit, the site's forged texts are not taken either; theirs is, as typed.
    await editText(page);
    await page.waitForTimeout(500);
    await unchanged();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Baked by hand');
    await page.keyboard.press('Enter');
    await page
      .locator('#notice')
      .getByText(/Saved the text in index\.html/)
      .waitFor();
    const saved = (await ctx.services.files.get(systemPrincipal(org.id), project.id, 'index.html')).content;
    expect(saved).toBe(PAGE.replace('<h1>Luna Bakery</h1>', '<h1>Baked by hand</h1>'));
    await expect.poll(() => edits.length).toBe(1);
    await page.waitForTimeout(500);
    expect((await ctx.services.files.get(systemPrincipal(org.id), project.id, 'index.html')).content).toBe(
      saved,
    );
    // Words added to a paragraph whose source breaks its line: the line end was a space on the page.
    // The saved edit is a new version, which reloads the preview in a new frame: select in that one.
    const latest = (await ctx.services.versions.latest(systemPrincipal(org.id), project.id))!.number;
    await expect.poll(() => page.locator('#workspace').getAttribute('data-last-seen')).toBe(String(latest));
    await preview(page).locator('h1', { hasText: 'Baked by hand' }).waitFor();
    await selectInPreview(page, 'p');
    await editText(page);
    await page.keyboard.press('End');
    await page.keyboard.type(' daily');
    await page.keyboard.press('Enter');
    await expect
      .poll(
        async () => (await ctx.services.files.get(systemPrincipal(org.id), project.id, 'index.html')).content,
      )
      .toContain('<p>Fresh bread daily</p>');
    // The request event reaches the test on its own; the file may be read before it does.
    await expect.poll(() => edits.length).toBe(2);
    // Leaving the preview for the builder (here its prompt) ends the edit, saved.
    const second = (await ctx.services.versions.latest(systemPrincipal(org.id), project.id))!.number;
    await expect.poll(() => page.locator('#workspace').getAttribute('data-last-seen')).toBe(String(second));
    await preview(page).locator('p', { hasText: 'daily' }).waitFor();
    await selectInPreview(page, 'h1');
    await editText(page);
    await page.keyboard.type('Bread every morning');
    await page.locator('#prompt').click();
    await expect
      .poll(
        async () => (await ctx.services.files.get(systemPrincipal(org.id), project.id, 'index.html')).content,
      )
      .toContain('<h1>Bread every morning</h1>');
    await expect.poll(() => edits.length).toBe(3);
    expect(csp).toEqual([]);
    await context.close();
  }, 60_000);

  it('the AI messages counter and the chat follow every message', async () => {
    const { org, page, context, csp } = await signedInAgency(1260, 720);
    const { project } = await clientProject(org.id, { max_ai_messages_daily: 3 });
    // A long history (older days: not counted today).
    const past = new Date(Date.now() - 3 * 86_400_000);
    await ctx.database.db
      .insertInto('generations')
      .values(
        Array.from({ length: 12 }, (_, i) => {
          const at = new Date(past.getTime() + i * 60_000).toISOString();
          return {
            id: `01a30000-0000-7000-8000-${String(i).padStart(12, '0')}`,
            org_id: org.id,
            project_id: project.id,
            org_client_id: project.org_client_id,
            author_user_id: null,
            author_key_id: null,
            prompt: `An older prompt number ${i + 1}, asking for something on the site`,
            element: null,
            model: 'builtin',
            status: 'succeeded' as const,
            error: null,
            summary: `Did thing ${i + 1}`,
            files: null,
            attempts: 1,
            next_attempt_at: null,
            lease_until: null,
            lease_token: null,
            created_at: at,
            started_at: at,
            finished_at: at,
            updated_at: at,
          };
        }),
      )
      .execute();
    await page.goto(`${base}/app/projects/${project.id}`);
    /** The end of the message shows between the panel's top and the prompt box. */
    const inView = async (locator: ReturnType<Page['locator']>) => {
      const box = (await locator.boundingBox())!;
      const form = (await page.locator('#prompt-form').boundingBox())!;
      const panel = (await page.locator('#panel-chat').boundingBox())!;
      const end = box.y + box.height;
      return end > panel.y + 20 && end <= form.y + 1;
    };
    // Opened at the newest message.
    expect(await inView(page.locator('#history .turn').last())).toBe(true);
    await expect
      .poll(() => page.locator('#allowance').textContent())
      .toMatch(/AI messages today: 0 of 3 \(plan [^)]+\), 3 left\./);

    await page.getByLabel('What should we build?').fill('A bakery in Bristol called Luna Bakery');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#allowance').textContent()).toContain('1 of 3');
    expect(await page.locator('#allowance-left').textContent()).toBe('2 left');
    await page.locator('#history .turn[data-status="succeeded"]').last().waitFor({ timeout: 15_000 });
    await page.locator('#progress').waitFor({ state: 'hidden' });
    await expect.poll(() => inView(page.locator('#history .turn').last())).toBe(true);
    await check(page, 'builder-chat-counter');

    // Refused by the model: it changed nothing, so the counter goes back after it.
    await page.getByLabel('What should change?').fill('more whimsy please');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#history .turn[data-status="failed"]').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('#allowance-used').textContent()).toBe('1');
    expect(await page.locator('#allowance-left').textContent()).toBe('2 left');
    await expect.poll(() => inView(page.locator('#history .turn').last())).toBe(true);
    expect(csp).toEqual([]);
    await context.close();
  }, 60_000);

  it.each([
    ['desktop', 1290, 820, ''],
    ['tablet', 830, 1180, '-tablet'],
  ])(
    'at %s width, custom domains: the DNS records with room, copy buttons and the right status styles',
    async (_name, width, height, suffix) => {
      const { org, page, context, csp } = await signedInAgency(width, height);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      const { project } = await clientProject(
        org.id,
        { can_use_custom_domain: true, can_export_code: false },
        { 'index.html': '<!doctype html><title>Luna</title><h1>Luna</h1>' },
      );
      const domain = await ctx.services.domains.add(
        systemPrincipal(org.id),
        project.id,
        `www.luna-bakery-${width}.co.uk`,
      );
      const [cname, txt] = domain.dns_records;
      await page.goto(`${base}/app/projects/${project.id}?tab=publish`);
      const card = page.locator('.domain');
      await card.waitFor();
      // Not checked yet: neutral, not success.
      expect(await card.locator('.badge.dns-unchecked').count()).toBe(2);
      expect(await card.locator('.badge.dns-ok').count()).toBe(0);

      // A copy button beside each name and value, which copies it.
      const copies = card.getByRole('button', { name: /^Copy the (name|value) of the/ });
      expect(await copies.count()).toBe(4);
      await card
        .getByRole('button', { name: `Copy the value of the CNAME record for ${domain.domain}` })
        .click();
      await page
        .locator('#notice')
        .getByText(`Copied the value of the CNAME record for ${domain.domain}.`)
        .waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(cname!.value);

      // The values have room: none is squeezed into a sliver, and nothing spills out of the card.
      const widths = await card
        .locator('code.dns-text')
        .evaluateAll((codes) => codes.map((c) => c.getBoundingClientRect().width));
      expect(Math.min(...widths)).toBeGreaterThan(150);
      expect(await card.evaluate((c) => c.scrollWidth <= c.clientWidth)).toBe(true);
      const stacked = await card.locator('thead').evaluate((t) => t.getBoundingClientRect().height <= 1);
      expect(stacked).toBe(width > 1024);

      // The ownership record is right, the routing one is not: verify says so as a warning.
      dns.set(txt!.name, { type: 'TXT', value: txt!.value });
      dns.set(cname!.name, { type: 'CNAME', value: 'somewhere-else.example' });
      await card.getByRole('button', { name: `Verify ${domain.domain}` }).click();
      const warning = page.locator('#notice .notice.warning', { hasText: 'not right yet' });
      await warning.waitFor();
      expect(await warning.evaluate((n) => getComputedStyle(n).backgroundColor)).not.toBe(
        'rgb(236, 253, 243)',
      );
      await page.locator('.domain .badge.dns-wrong').waitFor();
      expect(await page.locator('.domain .badge.dns-ok').count()).toBe(1);
      expect(
        await page.locator('.domain .badge.dns-wrong').evaluate((b) => getComputedStyle(b).backgroundColor),
      ).toBe('rgb(254, 240, 199)');
      await card.scrollIntoViewIfNeeded();
      await check(page, `builder-domains${suffix}`);

      // The Code panel on a plan without code export: every file to view and edit, no download.
      await page.getByRole('link', { name: 'Code' }).click();
      await page.locator('.cm-editor').waitFor();
      expect(await page.getByRole('link', { name: /Download the code/ }).count()).toBe(0);
      await page
        .locator('#export-note')
        .getByText(/does not include downloading the code: the files can be viewed and edited here/)
        .waitFor();
      await check(page, `builder-code-no-export${suffix}`);
      expect(csp).toEqual([]);
      await context.close();
    },
    60_000,
  );

  it('an uploaded image goes onto the picture the person selects in the preview', async () => {
    const { org, page, context, csp } = await signedInAgency(1100, 800);
    const client = await ctx.services.clients.create(systemPrincipal(org.id), {
      email: 'pictures@wedding.test',
    });
    const project = await ctx.services.projects.create(systemPrincipal(org.id), {
      client_email: client.email,
      name: 'Lyon Weddings',
    });
    await page.goto(`${base}/app/projects/${project.id}`);
    await page.getByLabel('What should we build?').fill('A wedding photographer in Lyon with a gallery');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#history [data-status="succeeded"]').waitFor({ timeout: 15_000 });
    // A 1x1 PNG, as the Files tab would upload it.
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    await ctx.services.files.put(systemPrincipal(org.id), project.id, 'images/wedding1.png', {
      content: png,
      encoding: 'base64',
    });
    await page.reload();
    await page.getByRole('button', { name: 'Select an element' }).click();
    // A press on one shape of the hero's drawing selects the drawing.
    for (let tries = 0; tries < 10; tries++) {
      await preview(page).locator('.hero svg circle').first().click({ force: true });
      if (
        await page
          .locator('#selection-tag', { hasText: '<svg>' })
          .waitFor({ timeout: 1_000 })
          .then(
            () => true,
            () => false,
          )
      )
        break;
    }
    expect(await page.locator('#selection-tag').textContent()).toBe('<svg>');
    await page.getByLabel('What should change?').fill('show images/wedding1.png here');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#history [data-status="succeeded"]').nth(1).waitFor({ timeout: 15_000 });
    expect(await page.locator('#history .turn').last().textContent()).toContain(
      'images/wedding1.png placed in the hero',
    );
    await preview(page).locator('.hero img[src="images/wedding1.png"][alt="Wedding1"]').waitFor();
    // It loads, through the srcset the preview writes as publishing will.
    const hero = preview(page).locator('.hero img');
    await expect
      .poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect(await hero.getAttribute('srcset')).toBe('images/wedding1.png?w=1 1w');
    expect(csp).toEqual([]);
    await context.close();
  }, 60_000);

  it('Replace image: a selected picture shows a chosen or dropped image, with its alt text', async () => {
    const { org, page, context, csp } = await signedInAgency(1180, 860);
    const owner = systemPrincipal(org.id);
    const client = await ctx.services.clients.create(owner, { email: 'replace@cathedral.test' });
    const project = await ctx.services.projects.create(owner, {
      client_email: client.email,
      name: 'Cathedral Weddings',
    });
    await page.goto(`${base}/app/projects/${project.id}`);
    await page.getByLabel('What should we build?').fill('A wedding photographer in Lyon with a gallery');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#history [data-status="succeeded"]').waitFor({ timeout: 15_000 });
    await ctx.services.files.putBytes(owner, project.id, 'images/cathedral.jpg', await photo(1200, 800));
    await page.reload();
    await page.getByRole('button', { name: 'Select an element' }).click();
    for (let tries = 0; tries < 10; tries++) {
      await preview(page).locator('.hero svg circle').first().click({ force: true });
      const shown = await page
        .locator('#selection-tag', { hasText: '<svg>' })
        .waitFor({ timeout: 1_000 })
        .then(
          () => true,
          () => false,
        );
      if (shown) break;
    }
    await page.getByRole('button', { name: 'Replace image' }).click();
    await page.getByRole('radio', { name: 'images/cathedral.jpg' }).check();
    await page.getByLabel('Alt text').fill('The cathedral steps at dusk');
    await page.locator('#image-form').evaluate((form) => form.scrollIntoView({ block: 'start' }));
    await check(page, 'builder-replace-image');
    await page.locator('#image-form').getByRole('button', { name: 'Replace image' }).click();
    const placed = preview(page).locator('.hero img[alt="The cathedral steps at dusk"]');
    await placed.waitFor({ timeout: 10_000 });
    // The preview serves the picture as a copy the width the page asks for (srcset).
    await expect
      .poll(() => placed.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 10_000 })
      .toBeGreaterThan(100);
    expect(await placed.getAttribute('srcset')).toContain('images/cathedral.jpg?w=320 320w');

    // A picture dropped on the form is uploaded and shown instead, as a new version.
    await page.getByRole('button', { name: 'Select an element' }).click();
    await page.getByRole('button', { name: 'Select an element' }).click();
    await preview(page).locator('.hero img').click();
    await page.locator('#selection-tag', { hasText: '<img>' }).waitFor();
    await page.getByRole('button', { name: 'Replace image' }).click();
    expect(await page.getByLabel('Alt text').inputValue()).toBe('The cathedral steps at dusk');
    const png = (await tinyPng()).toString('base64');
    const dropped = await page.evaluateHandle((data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'Rings.png', { type: 'image/png' }));
      return transfer;
    }, png);
    await page.dispatchEvent('#image-drop', 'drop', { dataTransfer: dropped });
    await page.getByText('Rings.png is uploaded into images/').waitFor();
    await page.getByLabel('Alt text').fill('Two rings');
    await page.locator('#image-form').getByRole('button', { name: 'Replace image' }).click();
    await preview(page)
      .locator('.hero img[src="images/Rings.png"][alt="Two rings"]')
      .waitFor({ timeout: 10_000 });
    await page
      .getByRole('radio', { name: 'images/Rings.png', includeHidden: true })
      .waitFor({ state: 'attached' });
    const { versions } = await ctx.services.versions.list(owner, project.id, 2, 0);
    expect(versions.map((v) => v.summary)).toEqual([
      'Replaced a picture in index.html with images/Rings.png',
      'Replaced a picture in index.html with images/cathedral.jpg',
    ]);
    expect(csp).toEqual([]);
    await context.close();
  }, 90_000);
});
