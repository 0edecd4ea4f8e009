// The embeddable builder in Debian's Chromium, under the pages' real CSP: the host page is the
// example host (examples/embed-host) on http://localhost:A, Sitewright on http://127.0.0.1:B (two
// sites), third-party cookies blocked as Safari and Firefox block them. The full widget mounts
// through the SDK, the token arrives by message and becomes a partitioned cookie that the same
// origin opened top-level never sees; a prompt builds a site with live progress; publishing
// reaches the host as `project.published`; a page on another origin cannot frame it; a token
// about to expire is refreshed through fetchToken without a reload; a revoked session stops at
// its next request; the preview pane is driven by messages alone. No embt_ token appears in a
// URL, a Referer or a log line. UPDATE_SCREENSHOTS=1 writes the screenshots to docs/embed/.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createContainer, type Container } from '../../src/container.ts';
import { GenerationWorker } from '../../src/modules/generations/worker.ts';
import { buildServer } from '../../src/main.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { freePort } from '../helpers/server-process.ts';
import { cspViolations, hasChromium, launchChromium, SHOTS } from '../helpers/browser.ts';
import { logCollector } from '../helpers/log-lines.ts';
import { waitUntil } from '../helpers/wait.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const HOST_SCRIPT = fileURLToPath(new URL('../../examples/embed-host/server.mjs', import.meta.url));
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let db: TestDatabase;
let ctx: Container;
let app: FastifyInstance;
let worker: GenerationWorker;
let browser: Browser;
let base: string;
let embedKey: string;
let orgId: string;
const hosts: ChildProcess[] = [];
const log = logCollector();

/** Starts the example host on a port of its own; its page is at http://localhost:PORT. */
async function startHost(): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [HOST_SCRIPT], {
    env: {
      PATH: process.env.PATH ?? '',
      SITEWRIGHT_URL: base,
      SITEWRIGHT_EMBED_KEY: embedKey,
      PORT: String(port),
    },
    stdio: 'ignore',
  });
  hosts.push(child);
  const url = `http://localhost:${port}`;
  await waitUntil(
    () =>
      fetch(url).then(
        (r) => r.ok,
        () => false,
      ),
    10_000,
    'the example host',
  );
  return url;
}

let hostUrl: string;

beforeAll(async () => {
  if (!hasChromium) return;
  db = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createContainer(
    testConfig(db, { PUBLIC_URL: base, SITES_DOMAIN: `localhost:${port}`, GENERATION_POLL_INTERVAL: '50ms' }),
    { rateLimitKeyPrefix: `sw:test:${process.pid}:embed-browser` },
  );
  app = await buildServer(ctx, pino({ level: 'info' }, log.stream));
  await app.listen({ port, host: '127.0.0.1' });
  worker = new GenerationWorker(ctx.database, ctx.services.aiModels, ctx.config);
  worker.start();
  const org = await ctx.services.orgs.createOrg('Embedding Agency');
  orgId = org.id;
  embedKey = (await ctx.services.orgs.createKey(org.id, ['embed'], 'host')).key;
  hostUrl = await startHost();
  await ctx.services.embed.setOrigins(systemPrincipal(org.id), [hostUrl]);
  browser = await launchChromium(['--test-third-party-cookie-phaseout']);
  if (SHOTS) mkdirSync('docs/embed', { recursive: true });
}, 60_000);

afterAll(async () => {
  for (const host of hosts) host.kill();
  await browser?.close();
  await worker?.stop(1_000);
  await app?.close();
  await ctx?.close();
  await db?.drop();
});

interface Watched {
  context: BrowserContext;
  page: Page;
  csp: string[];
  /** Every URL the browser asked for, with its Referer. */
  requests: string[];
}

async function openHost(path: string): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  context.on('request', (request) =>
    requests.push(`${request.url()} referer=${request.headers().referer ?? ''}`),
  );
  const page = await context.newPage();
  const csp = cspViolations(page);
  await page.goto(`${hostUrl}${path}`);
  return { context, page, csp, requests };
}

/** The Sitewright frame inside the host page, once it has left the handshake. */
async function builderFrame(page: Page, path: RegExp): Promise<Frame> {
  let frame: Frame | undefined;
  await waitUntil(
    async () => {
      frame = page.frames().find((f) => f.url().startsWith(base) && path.test(new URL(f.url()).pathname));
      return frame !== undefined;
    },
    15_000,
    'the builder frame',
  );
  await frame!.waitForLoadState();
  return frame!;
}

/** The host page's event list (the example host writes every SDK event into it). */
async function hostEvents(page: Page): Promise<string[]> {
  return page.locator('#events li').allTextContents();
}

async function seriousIn(frame: Frame): Promise<string[]> {
  await frame.evaluate(AXE);
  return frame.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `docs/embed/${name}.png` });
}

function noTokenAnywhere(watched: Watched): void {
  expect(watched.requests.filter((r) => r.includes('embt_'))).toEqual([]);
  expect(log.lines.filter((line) => JSON.stringify(line).includes('embt_'))).toEqual([]);
}

describe.runIf(hasChromium)('the embeddable builder in Chromium', () => {
  it('full widget: mounts by the SDK, a partitioned cookie, a prompt with progress, publish reaches the host', async () => {
    const watched = await openHost('/');
    const { page, context } = watched;
    const list = await builderFrame(page, /^\/embed\/s\/[0-9a-f-]{36}\/projects$/);
    await list.getByRole('heading', { name: 'Your websites' }).waitFor();
    expect(await seriousIn(list)).toEqual([]);

    // The cookie is partitioned under the host's site, and only there.
    const cookies = (await context.cookies()).filter((c) => c.domain === '127.0.0.1');
    expect(cookies.map((c) => [c.name, c.secure, c.httpOnly, c.sameSite])).toEqual([
      ['sitewright_embed', true, true, 'None'],
    ]);
    expect((cookies[0] as { partitionKey?: string }).partitionKey).toBe('http://localhost');
    const top = await context.newPage();
    const alone = await top.goto(list.url());
    expect(alone!.status()).toBe(401);
    await top.close();

    await shot(page, 'websites');
    await list.getByLabel('Name of a new website').fill('Luna Bakery');
    await list.getByRole('button', { name: 'Create' }).click();
    const frame = await builderFrame(page, /^\/embed\/s\/[0-9a-f-]{36}\/projects\/[0-9a-f-]{36}$/);
    await frame.getByLabel('What should we build?').waitFor();
    await shot(page, 'full-widget-empty');
    expect(await seriousIn(frame)).toEqual([]);

    await frame
      .getByLabel('What should we build?')
      .fill('A website for Luna Bakery in Bristol: sourdough and cakes');
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.locator('#history [data-status="succeeded"]').waitFor({ timeout: 20_000 });
    await frame.frameLocator('#preview').locator('h1').first().waitFor();
    await expect
      .poll(() => hostEvents(page))
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^generation\.started /),
          expect.stringMatching(/^generation\.progress /),
          expect.stringMatching(/^generation\.succeeded /),
        ]),
      );
    await shot(page, 'full-widget');

    await frame.locator('.top-actions').getByRole('button', { name: 'Publish' }).click();
    await expect
      .poll(() => hostEvents(page))
      .toContainEqual(expect.stringMatching(/^project\.published .*"url":"http/));
    expect(watched.csp).toEqual([]);
    noTokenAnywhere(watched);
    await context.close();
  }, 60_000);

  it('refuses to be framed by a page of an origin that is not allowed', async () => {
    const other = await startHost();
    const watched = await openHost('/');
    const session = await ctx.services.embed.create(
      { orgId, permissions: ['embed'], actor: { kind: 'api_key', keyId: 'k' } },
      { user: { email: 'stranger@host.example' }, mode: 'full' },
    );
    const page = await watched.context.newPage();
    await page.goto(`${other}/`);
    // The other host mounts this session: the browser blocks the frame (frame-ancestors).
    const blocked = await page.evaluate(async (url) => {
      const frame = document.createElement('iframe');
      frame.src = url;
      document.body.append(frame);
      await new Promise((r) => setTimeout(r, 1500));
      try {
        return frame.contentWindow!.location.href;
      } catch {
        return 'cross-origin document';
      }
    }, session.frame_url);
    const framed = page.frames().find((f) => f.url().startsWith(`${base}/embed/s/`));
    expect(framed ? await framed.locator('#handshake').count() : 0, blocked).toBe(0);
    await watched.context.close();
  }, 30_000);

  it('refreshes a session about to end through fetchToken, without a reload; a revoked one stops', async () => {
    const project = await ctx.services.projects
      .create(
        { orgId, permissions: ['read', 'write'], actor: { kind: 'system' } },
        { name: 'Refresh Bakery', client_email: 'owner@bakery.example' },
      )
      .catch(async () => {
        throw new Error('the client of the example host should exist after the first test');
      });
    // A session of 60 s: `session.expiring` comes after half of it, and the host's fetchToken answers it.
    const watched = await openHost(`/?project=${project.id}&ttl=60`);
    const { page } = watched;
    const frame = await builderFrame(page, new RegExp(`^/embed/s/[0-9a-f-]{36}/projects/${project.id}$`));
    await frame.evaluate(() => ((window as any).kept = 'still here'));
    await expect
      .poll(() => hostEvents(page), { timeout: 40_000 })
      .toContainEqual(expect.stringMatching(/^session\.expiring /));
    const sessions = () =>
      ctx.database.db.selectFrom('embed_sessions').selectAll().where('project_id', '=', project.id).execute();
    await expect.poll(async () => (await sessions()).filter((s) => s.exchanged_at !== null).length).toBe(2);
    // The first session ends; the frame works on with the second, on the same page.
    const [first] = (await sessions()).sort((a, b) =>
      String(a.created_at).localeCompare(String(b.created_at)),
    );
    await ctx.database.db
      .updateTable('embed_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', first!.id)
      .execute();
    await frame.getByLabel(/What should (we build|change)\?/).fill('A bakery website with a cake menu');
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.locator('#history [data-status="succeeded"]').waitFor({ timeout: 20_000 });
    expect(await frame.evaluate(() => (window as any).kept)).toBe('still here');

    // Revoked: the next request is refused, and the frame says so.
    const second = (await sessions()).find((s) => s.id !== first!.id)!;
    const res = await fetch(`${base}/api/embed/session/${second.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${embedKey}` },
    });
    expect(res.status).toBe(200);
    const refused = await page.evaluate(() =>
      (window as any).sw.send('publish').then(
        () => 'published',
        (e: Error) => e.message,
      ),
    );
    expect(refused).not.toBe('published');
    expect(watched.csp).toEqual([]);
    noTokenAnywhere(watched);
    await watched.context.close();
  }, 60_000);

  it('the preview pane alone, driven by messages: prompt, progress, select, theme, publish', async () => {
    const project = await ctx.services.projects.create(
      { orgId, permissions: ['read', 'write'], actor: { kind: 'system' } },
      { name: 'Pane Bakery', client_email: 'owner@bakery.example' },
    );
    const watched = await openHost(`/?mode=hybrid&project=${project.id}`);
    const { page } = watched;
    const pane = await builderFrame(
      page,
      new RegExp(`^/embed/s/[0-9a-f-]{36}/projects/${project.id}/preview$`),
    );
    await pane.locator('#workspace').waitFor();
    expect(await pane.locator('#prompt-form').count()).toBe(0);
    const started = await page.evaluate(() =>
      (window as any).sw.send('prompt', { text: 'A website for Pane Bakery in Leeds' }),
    );
    expect(started.generation_id).toMatch(/^[0-9a-f-]{36}$/);
    await expect
      .poll(() => hostEvents(page), { timeout: 20_000 })
      .toContainEqual(expect.stringMatching(/^generation\.succeeded /));
    expect(await hostEvents(page)).toContainEqual(expect.stringMatching(/^generation\.progress /));
    await pane.frameLocator('#preview').locator('h1').first().waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => (window as any).sw.send('select', { on: true }))).toEqual({
      selecting: true,
    });
    await page.evaluate(() => (window as any).sw.send('set_theme', { accent: '#c2255c', mode: 'dark' }));
    expect(
      await pane.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
      ),
    ).toBe('#c2255c');
    const failed = await page.evaluate(() =>
      (window as any).sw.send('set_theme', { accent: 'red' }).then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    expect(failed).toMatch(/#rrggbb/);
    await shot(page, 'preview-pane');
    const published = await page.evaluate(() => (window as any).sw.send('publish'));
    expect(published.url).toMatch(/^http/);
    await expect.poll(() => hostEvents(page)).toContainEqual(expect.stringMatching(/^project\.published /));
    expect(watched.csp).toEqual([]);
    noTokenAnywhere(watched);
    await watched.context.close();
  }, 60_000);

  it('headless: the host draws its own page from the REST API with the session token', async () => {
    const watched = await openHost('/');
    const { page } = watched;
    await page.goto(`${hostUrl}/headless`);
    const names = await page.locator('#projects h2').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['Luna Bakery', 'Pane Bakery']));
    const generations = () => ctx.database.db.selectFrom('generations').select('id').execute();
    const before = (await generations()).length;
    await page.getByLabel('Ask for a change').first().fill('Add a gluten-free section');
    await page.getByRole('button', { name: 'Send' }).first().click();
    await page.locator('#projects').waitFor();
    expect((await generations()).length).toBe(before + 1);
    await shot(page, 'headless');
    noTokenAnywhere(watched);
    await watched.context.close();
  }, 30_000);
});
