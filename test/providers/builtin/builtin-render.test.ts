// The builtin site in a real browser (Debian's Chromium driven by playwright-core): it must lay
// out without horizontal overflow on a phone and a desktop, with no console errors, no failed
// requests, and a label for every form field; and a site of every kind, light and dark, has no
// serious axe-core violation (colour contrast included) in the browser.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinProvider } from '../../../src/providers/builtin/index.ts';
import { KINDS } from '../../../src/providers/builtin/kinds.ts';
import { contentTypeFor } from '../../../src/modules/files/content.ts';
import { hasChromium, launchChromium, seriousViolations } from '../../helpers/browser.ts';

const PROMPTS = [
  "A website for Bella's Bakery in Lyon",
  'Acme Plumbing, emergency plumber in Leeds. Dark theme, add pricing and an FAQ',
  'Landing page for "Northwind Growth Partners International", a marketing agency in Rio de Janeiro, purple',
];

// Every kind once, every other one dark, with the sections that hold placeholders.
const KIND_PROMPTS = KINDS.map(
  (k, i) =>
    `A ${k.words[0]} in Leeds called Test Co with reviews, a FAQ and a gallery${i % 2 ? ', dark theme' : ''}`,
);

let browser: Browser;
let server: Server;
let base: string;
const sites = new Map<string, Map<string, string>>();

beforeAll(async () => {
  if (!hasChromium) return;
  for (const [i, prompt] of [...PROMPTS, ...KIND_PROMPTS].entries()) {
    const { files } = await new BuiltinProvider().generate({
      prompt,
      model: 'builtin',
      files: [],
      signal: new AbortController().signal,
    });
    sites.set(`s${i}`, new Map(files.map((f) => [f.path, String(f.content)])));
  }
  server = createServer((req, res) => {
    const [, site, ...rest] = (req.url ?? '/').split('?')[0]!.split('/');
    const path = rest.join('/') || 'index.html';
    const body = sites.get(site!)?.get(path);
    res
      .writeHead(body === undefined ? 404 : 200, {
        'content-type': contentTypeFor(body === undefined ? 'x.txt' : path),
      })
      .end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium([
    '--headless',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe.runIf(hasChromium)('the builtin site in Chromium', () => {
  for (const [i, prompt] of PROMPTS.entries()) {
    for (const width of [375, 1280]) {
      it(`lays out cleanly at ${width}px: ${prompt}`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        const problems: string[] = [];
        page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
        page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
        page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
        page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
        await page.goto(`${base}/s${i}/`, { waitUntil: 'load' });
        const layout = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
          unlabelled: [...document.querySelectorAll('input, textarea, select')].filter(
            (el) => !(el.id && document.querySelector(`label[for="${el.id}"]`)),
          ).length,
          imagesWithoutAlt: document.querySelectorAll('img:not([alt])').length,
          h1: document.querySelectorAll('h1').length,
          styled: getComputedStyle(document.querySelector('.button')!).borderRadius !== '0px',
        }));
        await page.close();
        expect(problems).toEqual([]);
        expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
        expect(layout).toMatchObject({ unlabelled: 0, imagesWithoutAlt: 0, h1: 1, styled: true });
      });
    }
  }

  it('has no serious accessibility violation for any kind, light or dark (axe-core, colour contrast included)', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const found: string[] = [];
    for (const [j, prompt] of KIND_PROMPTS.entries()) {
      await page.goto(`${base}/s${PROMPTS.length + j}/`, { waitUntil: 'load' });
      for (const v of await seriousViolations(page)) found.push(`${prompt} -> ${v}`);
    }
    await page.close();
    expect(found).toEqual([]);
  }, 90_000);
});
