// One generated site, checked: its files written to a directory and served by a tiny static
// server, every HTML page opened in Chromium and judged (axe-core, color-contrast in light and,
// when the site has one, dark scheme, html-validate, expected name, place, pages and section
// words, internal links, invented facts). Used by bench/generation.ts; it knows nothing of the
// generator but the notes file it leaves (NOTES_FILE).
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { HtmlValidate } from 'html-validate';
import type { Browser, Page } from 'playwright-core';
import { NOTES_FILE } from '../../src/providers/builtin/brief-file.ts';
import { serveDirectory } from '../lib/static-server.ts';
import { contains, inventedFacts, kindsMatch, type BenchPrompt } from './checks.ts';

export const VIEWPORT = { width: 1280, height: 800 };
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface SiteFile {
  path: string;
  content: string | Buffer;
}

interface PageFacts {
  title: string;
  text: string;
  ids: string[];
  links: { raw: string; url: string }[];
  nav: string[];
  lang: string;
  headings: string[];
}

export interface Result {
  id: string;
  expectedKind: string;
  detectedKind: string;
  kindOk: boolean;
  pages: string[];
  /** Requested pages missing or not linked from index.html's navigation. */
  pagesMissing: string[];
  pagesRequested: number;
  /** null: not checked (the prompt names none). */
  nameOk: boolean | null;
  placeOk: boolean | null;
  sectionsMissing: string[];
  sectionsRequested: number;
  invented: number;
  inventedFirst?: string;
  /** Every invented fact found (BENCH_JSON). */
  inventedAll: string[];
  wrongCurrency: string[];
  contrast: number;
  contrastDark: number | null;
  serious: string[];
  validatorErrors: number;
  validatorFirst?: string;
  /** Every validator error (BENCH_JSON). */
  validatorAll: string[];
  brokenLinks: string[];
  /** `<html lang>` of index.html is the expected language. */
  languageOk: boolean;
  /** Stated facts not on the site, or shown as a heading. */
  factsMissing: string[];
  factsStated: number;
  /** Headings with a word broken across lines, at phone width (390 px) or desktop. */
  headingBreaks: string[];
  ms: number;
  error?: string;
}

// Page scripts are strings: the TypeScript loader would wrap functions passed to page.evaluate
// with a naming helper the page does not have.
const SETTLE = `(async () => {
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let y = 0; y < document.documentElement.scrollHeight; y += 400) { window.scrollTo(0, y); await wait(25); }
  window.scrollTo(0, document.documentElement.scrollHeight);
  await wait(100);
  window.scrollTo(0, 0);
  const finite = document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity);
  await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))), wait(3000)]);
  await wait(50);
})()`;
const COLLECT = `(() => ({
  title: document.title,
  // The visible text without the placeholders a generator shows for facts it would not invent
  // ("Add your phone number (for example 0113 496 0000)"): asking for a fact is not stating one.
  text: (() => {
    if (!document.body) return '';
    const asks = [...document.querySelectorAll('[data-sw-todo]')];
    asks.forEach((e) => e.setAttribute('hidden', ''));
    const text = document.body.innerText;
    asks.forEach((e) => e.removeAttribute('hidden'));
    return text;
  })(),
  ids: [...document.querySelectorAll('[id]')].map((e) => e.id).concat([...document.querySelectorAll('a[name]')].map((e) => e.getAttribute('name'))),
  links: [...document.querySelectorAll('a[href], area[href], link[href], img[src], script[src], source[src], iframe[src], video[src], audio[src]')]
    .map((e) => ({ raw: e.getAttribute('href') ?? e.getAttribute('src'), url: e.href || e.src })),
  nav: [...document.querySelectorAll('nav a[href], header a[href]')].map((a) => a.href),
  lang: document.documentElement.lang,
  headings: [...document.querySelectorAll('h1, h2, h3, h4, summary, .eyebrow')].map((h) => h.innerText.trim()),
}))()`;
// Headings whose words break across lines: a word (between spaces) whose text spans more than
// one line box. Hyphenation by the browser would count too; Chromium here has no dictionaries.
const BROKEN_WORDS = `(() => {
  const out = [];
  for (const h of document.querySelectorAll('h1, h2, h3')) {
    const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
})()`;
const PHONE = { width: 390, height: 844 };
const AXE_ALL = `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))`;
const AXE_CONTRAST = `axe.run(document, { runOnly: ['color-contrast'], resultTypes: ['violations'] }).then((r) => r.violations.reduce((n, v) => n + v.nodes.length, 0))`;

const text = (content: string | Buffer) => (typeof content === 'string' ? content : content.toString('utf8'));

export function detectedKind(files: SiteFile[]): { kind: string; place: string | null | undefined } {
  const notes = files.find((f) => f.path === NOTES_FILE);
  if (!notes) return { kind: '?', place: undefined };
  try {
    const brief = JSON.parse(text(notes.content)) as { kind?: unknown; place?: unknown };
    return {
      kind: typeof brief.kind === 'string' ? brief.kind : '?',
      place: typeof brief.place === 'string' && brief.place.trim() ? brief.place : null,
    };
  } catch {
    return { kind: '?', place: undefined };
  }
}

async function openPage(
  browser: Browser,
  url: string,
  dark: boolean,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: dark ? 'dark' : 'light' });
  // The site alone: requests to other hosts (web fonts, CDNs) fail at once, as they would offline.
  const origin = new URL(url).origin;
  await context.route('**/*', (route) =>
    new URL(route.request().url()).origin === origin ? route.continue() : route.abort(),
  );
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await page.evaluate(SETTLE);
  return { page, close: () => context.close() };
}

/** `root`: a directory for the site's files (under root/<id>); `screenshot`: a path for a full-page screenshot of index.html. */
export async function checkSite(
  browser: Browser,
  validator: HtmlValidate,
  p: BenchPrompt,
  files: SiteFile[],
  ms: number,
  root: string,
  screenshot?: string,
): Promise<Result> {
  const { kind } = detectedKind(files);
  const notesPlace = detectedKind(files).place;
  const dir = join(root, p.id);
  // The generator's own notes (dot directories) are never served; everything else is the site.
  const site = files.filter((f) => !f.path.split('/').some((part) => part.startsWith('.')));
  for (const f of site) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.content);
  }
  const htmlFiles = site
    .filter((f) => /\.html?$/i.test(f.path))
    .map((f) => f.path)
    .sort((a, b) => (a === 'index.html' ? -1 : b === 'index.html' ? 1 : a.localeCompare(b)));
  const hasDarkMode = site.some(
    (f) => /\.(css|html?)$/i.test(f.path) && /prefers-color-scheme\s*:\s*dark/i.test(text(f.content)),
  );
  const server = await serveDirectory(dir);
  const r: Result = {
    id: p.id,
    expectedKind: p.expect.kind,
    detectedKind: kind,
    kindOk: kindsMatch(p.expect.kind, kind === '?' ? undefined : kind),
    pages: htmlFiles,
    pagesMissing: [],
    pagesRequested: p.expect.pages?.length ?? 0,
    nameOk: null,
    placeOk: null,
    sectionsMissing: [],
    sectionsRequested: p.expect.sections?.length ?? 0,
    invented: 0,
    inventedAll: [],
    wrongCurrency: [],
    contrast: 0,
    contrastDark: hasDarkMode ? 0 : null,
    serious: [],
    validatorErrors: 0,
    validatorAll: [],
    brokenLinks: [],
    languageOk: false,
    factsMissing: [],
    factsStated: 0,
    headingBreaks: [],
    ms,
  };
  try {
    const facts = new Map<string, PageFacts>();
    for (const path of htmlFiles) {
      const url = `${server.url}/${path === 'index.html' ? '' : path}`;
      const { page, close } = await openPage(browser, url, false);
      try {
        const f = (await page.evaluate(COLLECT)) as PageFacts;
        facts.set(path, f);
        await page.addScriptTag({ path: AXE });
        const violations = (await page.evaluate(AXE_ALL)) as {
          id: string;
          impact: string | null;
          nodes: number;
        }[];
        for (const v of violations) {
          if (v.id === 'color-contrast') r.contrast += v.nodes;
          else if (v.impact === 'serious' || v.impact === 'critical')
            r.serious.push(path === 'index.html' ? v.id : `${v.id} (${path})`);
        }
        const found = inventedFacts(f.text, p.prompt, p.expect.country);
        r.invented += found.count;
        r.inventedFirst ??= found.first && (path === 'index.html' ? found.first : `${found.first} (${path})`);
        r.inventedAll.push(...found.all.map((fact) => `${path}: ${fact}`));
        r.wrongCurrency.push(...found.wrongCurrency);
        if (path === 'index.html' && screenshot) await page.screenshot({ path: screenshot, fullPage: true });
        r.headingBreaks.push(
          ...((await page.evaluate(BROKEN_WORDS)) as string[]).map((w) => `${path}: ${w}`),
        );
        await page.setViewportSize(PHONE);
        r.headingBreaks.push(
          ...((await page.evaluate(BROKEN_WORDS)) as string[]).map((w) => `${path} (phone): ${w}`),
        );
      } finally {
        await close();
      }
      if (hasDarkMode) {
        const dark = await openPage(browser, url, true);
        try {
          await dark.page.addScriptTag({ path: AXE });
          r.contrastDark! += (await dark.page.evaluate(AXE_CONTRAST)) as number;
        } finally {
          await dark.close();
        }
      }
      const report = await validator.validateString(text(site.find((s) => s.path === path)!.content), path);
      for (const result of report.results) {
        for (const m of result.messages) {
          if (m.severity !== 2) continue;
          r.validatorErrors++;
          r.validatorAll.push(`${path}:${m.line} ${m.ruleId}: ${m.message}`);
          r.validatorFirst ??= r.validatorAll[0];
        }
      }
    }

    const index = facts.get('index.html');
    const allText = [...facts.values()].map((f) => `${f.title}\n${f.text}`).join('\n');
    if (p.expect.name !== null)
      r.nameOk = !!index && (contains(index.text, p.expect.name) || contains(index.title, p.expect.name));
    if (p.expect.place !== null)
      r.placeOk = !!index && (contains(index.text, p.expect.place) || contains(index.title, p.expect.place));
    else if (notesPlace !== undefined) r.placeOk = notesPlace === null; // no place asked for: none may be made up
    r.sectionsMissing = (p.expect.sections ?? []).filter((word) => !contains(allText, word));
    r.languageOk = (index?.lang ?? '').slice(0, 2).toLowerCase() === (p.expect.language ?? 'en');
    const stated = Object.entries(p.expect.facts ?? {}).flatMap(([name, v]) =>
      Array.isArray(v) ? v.map((x) => [name, x]) : [[name, v]],
    ) as [string, string][];
    r.factsStated = stated.length;
    const headings = [...facts.values()].flatMap((f) => f.headings);
    const squash = (s: string) =>
      s
        .toLowerCase()
        .replace(/\u2011/g, '-')
        .replace(/[\s\u00a0]+/g, ' ')
        .trim();
    for (const [name, value] of stated) {
      if (!contains(allText, value) && !squash(allText).includes(squash(value)))
        r.factsMissing.push(`${name} ${value} (absent)`);
      else if (headings.some((h) => squash(h).includes(squash(value))))
        r.factsMissing.push(`${name} ${value} (as a heading)`);
    }
    // A page asked for as `about.html` may also be made as `about/index.html`; a nav link may name
    // it `/about.html`, `/about/`, `/about/index.html` or `/about` (which redirects).
    for (const wanted of p.expect.pages ?? []) {
      const stem = wanted.replace(/\.html?$/, '');
      const file = [wanted, `${stem}/index.html`].find((f) => htmlFiles.includes(f));
      const paths = [`/${wanted}`, `/${stem}/`, `/${stem}/index.html`, `/${stem}`];
      if (!file) r.pagesMissing.push(`${wanted} (absent)`);
      else if (wanted !== 'index.html' && !index?.nav.some((href) => paths.includes(new URL(href).pathname)))
        r.pagesMissing.push(`${wanted} (not in nav)`);
    }

    // Internal links: same-origin URLs must answer 200; #fragments must name an element of their page.
    const status = new Map<string, number>();
    for (const [path, f] of facts) {
      for (const link of f.links) {
        if (!link.url || !link.url.startsWith(server.url)) continue;
        const u = new URL(link.url);
        const where = `${path}: ${link.raw}`;
        const target = u.pathname;
        if (!status.has(target)) status.set(target, (await fetch(server.url + target)).status);
        if (status.get(target) !== 200) {
          r.brokenLinks.push(where);
          continue;
        }
        if (u.hash) {
          const page = target.replace(/\/$/, '/index.html').replace(/^\//, '');
          const ids = facts.get(page)?.ids;
          if (ids && !ids.includes(decodeURIComponent(u.hash.slice(1)))) r.brokenLinks.push(where);
        } else if (link.raw === '#') {
          r.brokenLinks.push(where);
        }
      }
    }
  } finally {
    await server.close();
  }
  return r;
}

/** A prompt whose generation or check failed: it counts against every target. */
export function failed(p: BenchPrompt, kind: string, ms: number, error: string): Result {
  return {
    id: p.id,
    expectedKind: p.expect.kind,
    detectedKind: kind,
    kindOk: false,
    pages: [],
    pagesMissing: [],
    pagesRequested: 0,
    nameOk: null,
    placeOk: null,
    sectionsMissing: [],
    sectionsRequested: 0,
    invented: 0,
    inventedAll: [],
    wrongCurrency: [],
    contrast: 0,
    contrastDark: null,
    serious: [],
    validatorErrors: 0,
    validatorAll: [],
    brokenLinks: [],
    languageOk: false,
    factsMissing: [],
    factsStated: 0,
    headingBreaks: [],
    ms,
    error,
  };
}
