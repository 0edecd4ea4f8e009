// What `npm run bench:lighthouse` prints: a row per site and visit (scores, LCP, CLS, bytes and
// the audits that failed), then the summary of the first visits against the target: every
// category at least 95 on every site, its median 100. The second visits are summed up beside
// them (the same pages once the server has made the images' copies), without a target.
import { CATEGORIES, type Audit, type Category } from './audit.ts';

export const TARGET = { min: 95, median: 100 };

/** A Lighthouse run that did not finish. */
export type Visit = Audit | { error: string };

export interface SiteResult {
  id: string;
  prompt: string;
  /** The published site; undefined when it could not be made. */
  url?: string;
  /** Why the site could not be generated or published. */
  error?: string;
  /** Seconds from the generate request to the generation's success. */
  generationSeconds?: number;
  /** The published home page's `<img>` tags: how many, how many show the project's images/, how many with `?w=` copies in a srcset. */
  images?: { tags: number; fromImages: number; withCopies: number };
  /** Visit 1: the images' copies made as they are asked for. */
  first?: Visit;
  /** Visit 2, right after: the copies made already (the browser's cache is cleared before each visit). */
  second?: Visit;
}

const SHORT: Record<Category, string> = {
  performance: 'perf',
  accessibility: 'a11y',
  'best-practices': 'bp',
  seo: 'seo',
};
const log = (line: string) => console.log(line);
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const isAudit = (v: Visit | undefined): v is Audit => v !== undefined && !('error' in v);

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const ms = (x: number | null) => (x === null ? '—' : `${Math.round(x)} ms`);
const kib = (x: number | null) => (x === null ? '—' : `${Math.round(x / 1024).toLocaleString('en')} KiB`);
const cls = (x: number | null) => (x === null ? '—' : x.toFixed(3));

function failures(a: Audit): string {
  return CATEGORIES.filter((c) => a.failing[c]?.length)
    .map((c) => `${SHORT[c]}: ${a.failing[c]!.map((f) => f.id).join(', ')}`)
    .join('; ');
}

export function table(results: SiteResult[]): void {
  log(
    '\n| site | visit | performance | accessibility | best-practices | seo | LCP | CLS | bytes | failing audits (score < 0.9) |',
  );
  log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    if (r.error) {
      log(`| ${r.id} | — | not published: ${cell(r.error)} | | | | | | | |`);
      continue;
    }
    for (const [name, visit] of [
      ['first', r.first],
      ['second', r.second],
    ] as const) {
      if (!visit) continue;
      if (!isAudit(visit)) {
        log(`| ${r.id} | ${name} | Lighthouse failed: ${cell(visit.error)} | | | | | | | |`);
        continue;
      }
      const scores = CATEGORIES.map((c) => {
        const s = visit.scores[c];
        return s === null ? '—' : s < TARGET.min ? `**${s}**` : String(s);
      });
      const problems = [visit.runtimeError && `runtime error ${visit.runtimeError}`, failures(visit)]
        .filter(Boolean)
        .join('; ');
      log(
        `| ${r.id} | ${name} | ${scores.join(' | ')} | ${ms(visit.lcpMs)} | ${cls(visit.cls)} | ${kib(visit.bytes)} | ${cell(problems) || '—'} |`,
      );
    }
  }
}

/** The failing audits with what Lighthouse says of each (first visits, then second visits when they differ). */
export function details(results: SiteResult[]): void {
  const lines: string[] = [];
  for (const r of results)
    for (const [name, visit] of [
      ['first', r.first],
      ['second', r.second],
    ] as const) {
      if (!isAudit(visit)) continue;
      for (const c of CATEGORIES)
        for (const f of visit.failing[c] ?? [])
          lines.push(
            `- ${r.id} (${name} visit), ${c}: ${f.id} score ${f.score === null ? 'error' : f.score.toFixed(2)}${f.display ? ` (${f.display})` : ''}`,
          );
      for (const w of visit.warnings) lines.push(`- ${r.id} (${name} visit), Lighthouse warning: ${w}`);
    }
  if (lines.length) log(`\nFailing audits and warnings:\n${lines.join('\n')}`);
}

/** The summary of one visit over every site; returns whether the target holds (a site without scores misses it). */
export function summary(results: SiteResult[], visit: 'first' | 'second', withTarget: boolean): boolean {
  const audits = results.map((r) => r[visit]).filter(isAudit);
  const unscored = results.length - audits.length;
  log(
    `\n${visit === 'first' ? 'First' : 'Second'} visits: ${audits.length} sites scored${unscored ? `, **${unscored} not** (not published or Lighthouse failed)` : ''}\n`,
  );
  log(`| category | min | median | sites under ${TARGET.min} |${withTarget ? ' target |' : ''}`);
  log(`|---|---|---|---|${withTarget ? '---|' : ''}`);
  let holds = unscored === 0 && audits.length > 0;
  for (const c of CATEGORIES) {
    const scores = audits.map((a) => a.scores[c]);
    const known = scores.filter((s): s is number => s !== null);
    const under = scores.filter((s) => s === null || s < TARGET.min).length + unscored;
    const met =
      known.length > 0 && under === 0 && known.length === scores.length && median(known) >= TARGET.median;
    holds &&= met;
    log(
      `| ${c} | ${known.length ? Math.min(...known) : '—'} | ${known.length ? median(known) : '—'} | ${under}/${results.length} |${withTarget ? ` ${met ? 'met' : '**MISSED**'} |` : ''}`,
    );
  }
  const values = (f: (a: Audit) => number | null) => audits.map(f).filter((x): x is number => x !== null);
  const lcp = values((a) => a.lcpMs);
  const shifts = values((a) => a.cls);
  const bytes = values((a) => a.bytes);
  if (lcp.length)
    log(
      `\nLCP median ${ms(median(lcp))}, slowest ${ms(Math.max(...lcp))}; CLS largest ${cls(Math.max(...shifts))}; bytes median ${kib(median(bytes))}, largest ${kib(Math.max(...bytes))}`,
    );
  if (withTarget)
    log(
      `Target (each category >= ${TARGET.min} on every site, median ${TARGET.median}), first visit: ${holds ? 'met' : '**MISSED**'}`,
    );
  return holds;
}
