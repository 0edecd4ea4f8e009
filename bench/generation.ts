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
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { HtmlValidate } from 'html-validate';
import { chromium } from 'playwright-core';
import { BuiltinProvider } from '../src/providers/builtin/index.ts';
import { onCleanup, runBenchmark } from './lib/cleanup.ts';
import { describeRun } from './lib/machine.ts';
import { APP_DIR } from './lib/product.ts';
import { STYLISTIC_RULES_OFF, loadPrompts, type BenchPrompt } from './generation/checks.ts';
import { VIEWPORT, checkSite, detectedKind, failed, type Result } from './generation/site.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The first set; a second written fresh by someone who had not read the parser (a third not in
// English); and a third written later by someone else again, held out: its first run measured
// the model on prompts it had not seen (bench/README.md keeps that run); its totals are printed apart.
const PROMPT_FILES = [
  'prompts/prompts.json',
  'prompts/prompts-fresh.json',
  'prompts/prompts-holdout.json',
].map((f) => fileURLToPath(new URL(f, import.meta.url)));
const HOLDOUT_FILE = PROMPT_FILES[2]!;
const DOCS_DIR = fileURLToPath(new URL('../docs/', import.meta.url));
const RUNS = 3;
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
  // One site per language the builtin model writes besides English.
  'friseur-leipzig-salbei',
  'plombier-nantes',
  'clinica-dental-madrid',
  'pizzeria-napoli',
  'bakkerij-amsterdam',
  'contabilidade-coimbra-pages',
];
const TARGETS = { nameShare: 0.95, placeShare: 0.95, share: 0.95, generationMs: 200 };
const log = (line: string) => console.log(line);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function generate(p: BenchPrompt) {
  const provider = new BuiltinProvider();
  const times: number[] = [];
  let result: Awaited<ReturnType<BuiltinProvider['generate']>> | undefined;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = await provider.generate({
      prompt: p.prompt,
      model: 'builtin',
      files: [],
      signal: new AbortController().signal,
    });
    times.push(performance.now() - started);
  }
  return { files: result!.files, ms: median(times) };
}

const yes = (ok: boolean | null) => (ok === null ? '—' : ok ? 'yes' : '**no**');
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const short = (s: string, n = 60) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

function table(results: Result[]): void {
  log(
    '\n| id | kind expected / detected | lang | pages | name | place | sections | facts | heading breaks | invented facts | contrast (dark) | serious axe | validator errors | links broken | ms |',
  );
  log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    if (r.error) {
      log(
        `| ${r.id} | ${r.expectedKind} / ? | | generation failed: ${cell(r.error)} | | | | | | | | | | | ${r.ms.toFixed(1)} |`,
      );
      continue;
    }
    const pages =
      r.pages.join(', ') + (r.pagesMissing.length ? `; **missing: ${r.pagesMissing.join(', ')}**` : '');
    const sections =
      r.sectionsRequested === 0
        ? '—'
        : r.sectionsMissing.length === 0
          ? `${r.sectionsRequested}/${r.sectionsRequested}`
          : `${r.sectionsRequested - r.sectionsMissing.length}/${r.sectionsRequested} (no ${r.sectionsMissing.join(', ')})`;
    const invented = r.invented === 0 ? '0' : `${r.invented}: ${r.inventedFirst}`;
    const contrast = `${r.contrast}${r.contrastDark === null ? '' : ` (${r.contrastDark})`}`;
    const validator =
      r.validatorErrors === 0 ? '0' : `${r.validatorErrors}: ${short(r.validatorFirst ?? '')}`;
    log(
      `| ${r.id} | ${r.expectedKind} / ${r.detectedKind}${r.kindOk ? '' : ' ✗'} | ${yes(r.languageOk)} | ${cell(pages)} | ${yes(r.nameOk)} | ${yes(r.placeOk)} | ${cell(sections)} | ${r.factsMissing.length ? cell(`${r.factsStated - r.factsMissing.length}/${r.factsStated}: ${r.factsMissing.join('; ')}`) : `${r.factsStated}/${r.factsStated}`} | ${r.headingBreaks.length ? cell(short(r.headingBreaks.join(', '))) : '0'} | ${cell(invented)} | ${contrast} | ${r.serious.join(', ') || '0'} | ${cell(validator)} | ${r.brokenLinks.length} | ${r.ms.toFixed(1)} |`,
    );
  }
}

function totals(results: Result[]): void {
  const ok = results.filter((r) => !r.error);
  const sum = (f: (r: Result) => number) => ok.reduce((n, r) => n + f(r), 0);
  const share = (xs: (boolean | null)[]) => {
    const checked = xs.filter((x) => x !== null);
    return {
      right: checked.filter(Boolean).length,
      of: checked.length,
      share: checked.length ? checked.filter(Boolean).length / checked.length : 1,
    };
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
  log(
    `\nTotals over ${results.length} prompts${results.length > ok.length ? ` (${results.length - ok.length} failed to generate)` : ''}:\n`,
  );
  log('| measure | result | target | |\n|---|---|---|---|');
  log(
    `| color-contrast failures (nodes; light + dark) | ${contrast} (light ${sum((r) => r.contrast)}, dark ${sum((r) => r.contrastDark ?? 0)} over ${ok.filter((r) => r.contrastDark !== null).length} sites with a dark mode) | 0 | ${met(contrast === 0)} |`,
  );
  log(
    `| serious/critical axe violations (rule × page) | ${serious} in ${ok.filter((r) => r.serious.length).length} sites | 0 | ${met(serious === 0)} |`,
  );
  log(
    `| html-validate errors | ${validator} in ${ok.filter((r) => r.validatorErrors).length} sites | 0 | ${met(validator === 0)} |`,
  );
  log(
    `| invented facts | ${invented} in ${ok.filter((r) => r.invented).length} sites | 0 | ${met(invented === 0)} |`,
  );
  log(
    `| name right | ${name.right}/${name.of} (${pct(name.share)}; ${ok.length - name.of} prompts name none) | >= 95% | ${met(name.share >= TARGETS.nameShare && ok.length === results.length)} |`,
  );
  log(
    `| place right | ${place.right}/${place.of} (${pct(place.share)}) | >= 95% | ${met(place.share >= TARGETS.placeShare && ok.length === results.length)} |`,
  );
  log(
    `| builtin generation, median of ${RUNS} per prompt | median ${median(times).toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms | < ${TARGETS.generationMs} ms | ${met(slowest < TARGETS.generationMs)} |`,
  );
  const languages = share(ok.map((r) => r.languageOk));
  const factsRight = sum((r) => r.factsStated - r.factsMissing.length);
  const factsStated = sum((r) => r.factsStated);
  const pagesRight = sum((r) => r.pagesRequested - r.pagesMissing.length);
  const pagesAsked = sum((r) => r.pagesRequested);
  const unbroken = ok.filter((r) => r.headingBreaks.length === 0).length;
  log(
    `| language right (\`<html lang>\`) | ${languages.right}/${languages.of} (${pct(languages.share)}) | >= 95% | ${met(languages.share >= TARGETS.share)} |`,
  );
  log(
    `| stated facts shown as facts (not absent, not a heading) | ${factsRight}/${factsStated} (${pct(factsStated ? factsRight / factsStated : 1)}) | >= 95% | ${met(!factsStated || factsRight / factsStated >= TARGETS.share)} |`,
  );
  log(
    `| requested pages present and linked | ${pagesRight}/${pagesAsked} (${pct(pagesAsked ? pagesRight / pagesAsked : 1)}) | >= 95% | ${met(!pagesAsked || pagesRight / pagesAsked >= TARGETS.share)} |`,
  );
  log(
    `| sites with no word broken in a heading (desktop and 390 px) | ${unbroken}/${ok.length} (${pct(unbroken / ok.length)}) | >= 95% | ${met(unbroken / ok.length >= TARGETS.share)} |`,
  );
  log(`| kind right (no target) | ${ok.filter((r) => r.kindOk).length}/${ok.length} | | |`);
  log(
    `| section words found (no target) | ${sum((r) => r.sectionsRequested - r.sectionsMissing.length)}/${sum((r) => r.sectionsRequested)} | | |`,
  );
  log(
    `| broken internal links (no target) | ${sum((r) => r.brokenLinks.length)} in ${ok.filter((r) => r.brokenLinks.length).length} sites | | |`,
  );
  log(
    `| prices in another currency than the place's (no target) | ${sum((r) => r.wrongCurrency.length)} in ${ok.filter((r) => r.wrongCurrency.length).length} sites | | |`,
  );
}

async function main(): Promise<number> {
  const only = process.env.BENCH_PROMPTS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const prompts = PROMPT_FILES.filter((file) => file !== HOLDOUT_FILE || existsSync(file))
    .flatMap((file) => loadPrompts(file))
    .filter((p) => !only || only.includes(p.id));
  const heldOut = new Set(existsSync(HOLDOUT_FILE) ? loadPrompts(HOLDOUT_FILE).map((p) => p.id) : []);
  log(
    `${describeRun(APP_DIR)}\nprompts: ${prompts.length} from ${PROMPT_FILES.join(', ')}; Chromium ${CHROMIUM} at ${VIEWPORT.width}x${VIEWPORT.height}`,
  );
  const root = mkdtempSync(join(tmpdir(), 'sitewright-bench-generation-'));
  onCleanup(() => rmSync(root, { recursive: true, force: true }));
  if (process.env.BENCH_SCREENSHOTS === '1') mkdirSync(DOCS_DIR, { recursive: true });

  // All generations first, so that the browser's work never runs beside a timed one.
  const generated = new Map<
    string,
    { files: { path: string; content: string | Buffer }[]; ms: number } | { error: string; ms: number }
  >();
  for (const p of prompts) {
    try {
      generated.set(p.id, await generate(p));
    } catch (error) {
      generated.set(p.id, { error: error instanceof Error ? error.message : String(error), ms: NaN });
    }
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  onCleanup(() => browser.close());
  const validator = new HtmlValidate({
    extends: ['html-validate:recommended'],
    rules: Object.fromEntries(STYLISTIC_RULES_OFF.map((rule) => [rule, 'off'])),
  });
  const results: Result[] = [];
  for (const p of prompts) {
    const g = generated.get(p.id)!;
    if ('error' in g) {
      results.push(failed(p, '?', g.ms, g.error));
      continue;
    }
    try {
      results.push(
        await checkSite(
          browser,
          validator,
          p,
          g.files,
          g.ms,
          root,
          process.env.BENCH_SCREENSHOTS === '1' && SCREENSHOT_IDS.includes(p.id)
            ? join(DOCS_DIR, `generated-${p.id}.png`)
            : undefined,
        ),
      );
    } catch (error) {
      results.push(
        failed(
          p,
          detectedKind(g.files).kind,
          g.ms,
          `check failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  await browser.close();

  table(results);
  totals(results);
  const unseen = results.filter((r) => heldOut.has(r.id));
  if (unseen.length) {
    log(`\nOf which the held-out set (${HOLDOUT_FILE}):`);
    totals(unseen);
  }
  const notes = prompts.filter((p) => p.note);
  if (notes.length) log(`\nNotes:\n${notes.map((p) => `- ${p.id}: ${p.note}`).join('\n')}`);
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
  return 0; // a measurement: the targets above say how it went
}

await runBenchmark(main);
