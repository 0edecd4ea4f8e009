// `npm run bench:generation`: the quality of the sites the `builtin` generator makes, over the
// prompts of bench/prompts/prompts.json. Each prompt is generated in this process (median of 3
// timed runs), its files written to a temporary directory and served by a tiny static server,
// and every HTML page opened in Chromium at 1280x800 and checked: axe-core (serious and critical
// violations; color-contrast apart, again with a dark colour scheme when the site has one),
// html-validate, the expected name, place, pages and section words, internal links, and facts
// the prompt never gave (ratings, years, client counts, testimonials, phones, addresses, prices).
// A measurement: it exits 0 whatever it finds and prints which targets are met.
// Knobs: BENCH_PROMPTS=id,id (a subset), BENCH_SCREENSHOTS=1 (docs/generated-<id>.png of
// SCREENSHOT_IDS), BENCH_JSON=file (every result as JSON), CHROMIUM_PATH.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { HtmlValidate } from 'html-validate';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BuiltinProvider } from '../src/modules/generations/builtin/index.ts';
import { NOTES_FILE } from '../src/modules/generations/builtin/notes.ts';
import { onCleanup, runBenchmark } from './lib/cleanup.ts';
import { describeRun } from './lib/machine.ts';
import { APP_DIR } from './lib/product.ts';
import { serveDirectory } from './lib/static-server.ts';
import { STYLISTIC_RULES_OFF, contains, inventedFacts, kindsMatch, loadPrompts, type BenchPrompt } from './generation/checks.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PROMPTS_FILE = fileURLToPath(new URL('prompts/prompts.json', import.meta.url));
const DOCS_DIR = fileURLToPath(new URL('../docs/', import.meta.url));
const RUNS = 3;
const VIEWPORT = { width: 1280, height: 800 };
/** A varied dozen whose index.html BENCH_SCREENSHOTS=1 saves as docs/generated-<id>.png. */
const SCREENSHOT_IDS = [
  'bakery-bristol',
  'dentist-leeds',
  'italian-manchester',
  'photographer-edinburgh-dark',
  'saas-analytics',
  'dog-grooming-york',
  'law-firm-london',
  'gym-berlin',
  'charity-sheffield',
  'wedding-emma-james',
  'app-chores',
  'sakura-sushi-osaka',
];
const TARGETS = { nameShare: 0.95, placeShare: 0.95, generationMs: 200 };
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const log = (line: string) => console.log(line);

interface PageFacts {
  title: string;
  text: string;
  ids: string[];
  links: { raw: string; url: string }[];
  nav: string[];
}

interface Result {
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
  text: document.body ? document.body.innerText : '',
  ids: [...document.querySelectorAll('[id]')].map((e) => e.id).concat([...document.querySelectorAll('a[name]')].map((e) => e.getAttribute('name'))),
  links: [...document.querySelectorAll('a[href], area[href], link[href], img[src], script[src], source[src], iframe[src], video[src], audio[src]')]
    .map((e) => ({ raw: e.getAttribute('href') ?? e.getAttribute('src'), url: e.href || e.src })),
  nav: [...document.querySelectorAll('nav a[href], header a[href]')].map((a) => a.href),
}))()`;
const AXE_ALL = `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))`;
const AXE_CONTRAST = `axe.run(document, { runOnly: ['color-contrast'], resultTypes: ['violations'] }).then((r) => r.violations.reduce((n, v) => n + v.nodes.length, 0))`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const text = (content: string | Buffer) => (typeof content === 'string' ? content : content.toString('utf8'));

async function generate(p: BenchPrompt) {
  const provider = new BuiltinProvider();
  const times: number[] = [];
  let result: Awaited<ReturnType<BuiltinProvider['generate']>> | undefined;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = await provider.generate({ prompt: p.prompt, model: 'builtin', files: [], signal: new AbortController().signal });
    times.push(performance.now() - started);
  }
  return { files: result!.files, ms: median(times) };
}

function detectedKind(files: { path: string; content: string | Buffer }[]): { kind: string; place: string | null | undefined } {
  const notes = files.find((f) => f.path === NOTES_FILE);
  if (!notes) return { kind: '?', place: undefined };
  try {
    const brief = JSON.parse(text(notes.content)) as { kind?: unknown; place?: unknown };
    return { kind: typeof brief.kind === 'string' ? brief.kind : '?', place: typeof brief.place === 'string' && brief.place.trim() ? brief.place : null };
  } catch {
    return { kind: '?', place: undefined };
  }
}

async function openPage(browser: Browser, url: string, dark: boolean): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: dark ? 'dark' : 'light' });
  // The site alone: requests to other hosts (web fonts, CDNs) fail at once, as they would offline.
  const origin = new URL(url).origin;
  await context.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await page.evaluate(SETTLE);
  return { page, close: () => context.close() };
}

async function check(browser: Browser, validator: HtmlValidate, p: BenchPrompt, files: { path: string; content: string | Buffer }[], ms: number, root: string): Promise<Result> {
  const { kind } = detectedKind(files);
  const notesPlace = detectedKind(files).place;
  const dir = join(root, p.id);
  // The generator's own notes (dot directories) are never served; everything else is the site.
  const site = files.filter((f) => !f.path.split('/').some((part) => part.startsWith('.')));
  for (const f of site) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.content);
  }
  const htmlFiles = site.filter((f) => /\.html?$/i.test(f.path)).map((f) => f.path).sort((a, b) => (a === 'index.html' ? -1 : b === 'index.html' ? 1 : a.localeCompare(b)));
  const hasDarkMode = site.some((f) => /\.(css|html?)$/i.test(f.path) && /prefers-color-scheme\s*:\s*dark/i.test(text(f.content)));
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
        const violations = (await page.evaluate(AXE_ALL)) as { id: string; impact: string | null; nodes: number }[];
        for (const v of violations) {
          if (v.id === 'color-contrast') r.contrast += v.nodes;
          else if (v.impact === 'serious' || v.impact === 'critical') r.serious.push(path === 'index.html' ? v.id : `${v.id} (${path})`);
        }
        const found = inventedFacts(f.text, p.prompt, p.expect.country);
        r.invented += found.count;
        r.inventedFirst ??= found.first && (path === 'index.html' ? found.first : `${found.first} (${path})`);
        r.inventedAll.push(...found.all.map((fact) => `${path}: ${fact}`));
        r.wrongCurrency.push(...found.wrongCurrency);
        if (path === 'index.html' && process.env.BENCH_SCREENSHOTS === '1' && SCREENSHOT_IDS.includes(p.id)) {
          await page.screenshot({ path: join(DOCS_DIR, `generated-${p.id}.png`), fullPage: true });
        }
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
    if (p.expect.name !== null) r.nameOk = !!index && (contains(index.text, p.expect.name) || contains(index.title, p.expect.name));
    if (p.expect.place !== null) r.placeOk = !!index && (contains(index.text, p.expect.place) || contains(index.title, p.expect.place));
    else if (notesPlace !== undefined) r.placeOk = notesPlace === null; // no place asked for: none may be made up
    r.sectionsMissing = (p.expect.sections ?? []).filter((word) => !contains(allText, word));
    for (const wanted of p.expect.pages ?? []) {
      if (!htmlFiles.includes(wanted)) r.pagesMissing.push(`${wanted} (absent)`);
      else if (wanted !== 'index.html' && !index?.nav.some((href) => new URL(href).pathname === `/${wanted}`)) r.pagesMissing.push(`${wanted} (not in nav)`);
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
function failed(p: BenchPrompt, kind: string, ms: number, error: string): Result {
  return { id: p.id, expectedKind: p.expect.kind, detectedKind: kind, kindOk: false, pages: [], pagesMissing: [], pagesRequested: 0, nameOk: null, placeOk: null, sectionsMissing: [], sectionsRequested: 0, invented: 0, inventedAll: [], wrongCurrency: [], contrast: 0, contrastDark: null, serious: [], validatorErrors: 0, validatorAll: [], brokenLinks: [], ms, error };
}

const yes = (ok: boolean | null) => (ok === null ? '—' : ok ? 'yes' : '**no**');
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const short = (s: string, n = 60) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

function table(results: Result[]): void {
  log('\n| id | kind expected / detected | pages | name | place | sections | invented facts | contrast (dark) | serious axe | validator errors | links broken | ms |');
  log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    if (r.error) {
      log(`| ${r.id} | ${r.expectedKind} / ? | generation failed: ${cell(r.error)} | | | | | | | | | ${r.ms.toFixed(1)} |`);
      continue;
    }
    const pages = r.pages.join(', ') + (r.pagesMissing.length ? `; **missing: ${r.pagesMissing.join(', ')}**` : '');
    const sections = r.sectionsRequested === 0 ? '—' : r.sectionsMissing.length === 0 ? `${r.sectionsRequested}/${r.sectionsRequested}` : `${r.sectionsRequested - r.sectionsMissing.length}/${r.sectionsRequested} (no ${r.sectionsMissing.join(', ')})`;
    const invented = r.invented === 0 ? '0' : `${r.invented}: ${r.inventedFirst}`;
    const contrast = `${r.contrast}${r.contrastDark === null ? '' : ` (${r.contrastDark})`}`;
    const validator = r.validatorErrors === 0 ? '0' : `${r.validatorErrors}: ${short(r.validatorFirst ?? '')}`;
    log(
      `| ${r.id} | ${r.expectedKind} / ${r.detectedKind}${r.kindOk ? '' : ' ✗'} | ${cell(pages)} | ${yes(r.nameOk)} | ${yes(r.placeOk)} | ${cell(sections)} | ${cell(invented)} | ${contrast} | ${r.serious.join(', ') || '0'} | ${cell(validator)} | ${r.brokenLinks.length} | ${r.ms.toFixed(1)} |`,
    );
  }
}

function totals(results: Result[]): void {
  const ok = results.filter((r) => !r.error);
  const sum = (f: (r: Result) => number) => ok.reduce((n, r) => n + f(r), 0);
  const share = (xs: (boolean | null)[]) => {
    const checked = xs.filter((x) => x !== null);
    return { right: checked.filter(Boolean).length, of: checked.length, share: checked.length ? checked.filter(Boolean).length / checked.length : 1 };
  };
  const name = share(ok.map((r) => r.nameOk));
  const place = share(ok.map((r) => r.placeOk));
  const contrast = sum((r) => r.contrast + (r.contrastDark ?? 0));
  const serious = sum((r) => r.serious.length);
  const validator = sum((r) => r.validatorErrors);
  const invented = sum((r) => r.invented);
  const times = results.map((r) => r.ms);
  const slowest = Math.max(...times);
  const met = (b: boolean) => (b ? 'met' : '**MISSED**');
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  log(`\nTotals over ${results.length} prompts${results.length > ok.length ? ` (${results.length - ok.length} failed to generate)` : ''}:\n`);
  log('| measure | result | target | |\n|---|---|---|---|');
  log(`| color-contrast failures (nodes; light + dark) | ${contrast} (light ${sum((r) => r.contrast)}, dark ${sum((r) => r.contrastDark ?? 0)} over ${ok.filter((r) => r.contrastDark !== null).length} sites with a dark mode) | 0 | ${met(contrast === 0)} |`);
  log(`| serious/critical axe violations (rule × page) | ${serious} in ${ok.filter((r) => r.serious.length).length} sites | 0 | ${met(serious === 0)} |`);
  log(`| html-validate errors | ${validator} in ${ok.filter((r) => r.validatorErrors).length} sites | 0 | ${met(validator === 0)} |`);
  log(`| invented facts | ${invented} in ${ok.filter((r) => r.invented).length} sites | 0 | ${met(invented === 0)} |`);
  log(`| name right | ${name.right}/${name.of} (${pct(name.share)}; ${ok.length - name.of} prompts name none) | >= 95% | ${met(name.share >= TARGETS.nameShare && ok.length === results.length)} |`);
  log(`| place right | ${place.right}/${place.of} (${pct(place.share)}) | >= 95% | ${met(place.share >= TARGETS.placeShare && ok.length === results.length)} |`);
  log(`| builtin generation, median of ${RUNS} per prompt | median ${median(times).toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms | < ${TARGETS.generationMs} ms | ${met(slowest < TARGETS.generationMs)} |`);
  log(`| kind right (no target) | ${ok.filter((r) => r.kindOk).length}/${ok.length} | | |`);
  log(`| requested pages present and in index.html's nav (no target) | ${sum((r) => r.pagesRequested - r.pagesMissing.length)}/${sum((r) => r.pagesRequested)} | | |`);
  log(`| section words found (no target) | ${sum((r) => r.sectionsRequested - r.sectionsMissing.length)}/${sum((r) => r.sectionsRequested)} | | |`);
  log(`| broken internal links (no target) | ${sum((r) => r.brokenLinks.length)} in ${ok.filter((r) => r.brokenLinks.length).length} sites | | |`);
  log(`| prices in another currency than the place's (no target) | ${sum((r) => r.wrongCurrency.length)} in ${ok.filter((r) => r.wrongCurrency.length).length} sites | | |`);
}

async function main(): Promise<number> {
  const only = process.env.BENCH_PROMPTS?.split(',').map((s) => s.trim()).filter(Boolean);
  const prompts = loadPrompts(PROMPTS_FILE).filter((p) => !only || only.includes(p.id));
  log(`${describeRun(APP_DIR)}\nprompts: ${prompts.length} from ${PROMPTS_FILE}; Chromium ${CHROMIUM} at ${VIEWPORT.width}x${VIEWPORT.height}`);
  const root = mkdtempSync(join(tmpdir(), 'sitewright-bench-generation-'));
  onCleanup(() => rmSync(root, { recursive: true, force: true }));
  if (process.env.BENCH_SCREENSHOTS === '1') mkdirSync(DOCS_DIR, { recursive: true });

  // All generations first, so that the browser's work never runs beside a timed one.
  const generated = new Map<string, { files: { path: string; content: string | Buffer }[]; ms: number } | { error: string; ms: number }>();
  for (const p of prompts) {
    try {
      generated.set(p.id, await generate(p));
    } catch (error) {
      generated.set(p.id, { error: error instanceof Error ? error.message : String(error), ms: NaN });
    }
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  onCleanup(() => browser.close());
  const validator = new HtmlValidate({ extends: ['html-validate:recommended'], rules: Object.fromEntries(STYLISTIC_RULES_OFF.map((rule) => [rule, 'off'])) });
  const results: Result[] = [];
  for (const p of prompts) {
    const g = generated.get(p.id)!;
    if ('error' in g) {
      results.push(failed(p, '?', g.ms, g.error));
      continue;
    }
    try {
      results.push(await check(browser, validator, p, g.files, g.ms, root));
    } catch (error) {
      results.push(failed(p, detectedKind(g.files).kind, g.ms, `check failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  await browser.close();

  table(results);
  totals(results);
  const notes = prompts.filter((p) => p.note);
  if (notes.length) log(`\nNotes:\n${notes.map((p) => `- ${p.id}: ${p.note}`).join('\n')}`);
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
  return 0; // a measurement: the targets above say how it went
}

await runBenchmark(main);
