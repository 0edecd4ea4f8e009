// One Lighthouse run of `npm run bench:lighthouse` and what is kept of it: the four category
// scores, LCP, CLS and the bytes of the page, and for each category under 100 the audits that
// failed (score under 0.9, among those that are scored), so that a reader sees why.
import { writeFileSync } from 'node:fs';
import lighthouse, { type Result as LighthouseResult } from 'lighthouse';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface FailedAudit {
  id: string;
  /** 0..1; null when the audit could not run (its error is in `display`). */
  score: number | null;
  /** What Lighthouse shows beside it ("2.9 s", "Potential savings of 1,234 KiB"), or its error. */
  display?: string;
}

export interface Audit {
  /** Scores ×100, rounded; null when the category could not be scored. */
  scores: Record<Category, number | null>;
  /** Largest Contentful Paint, ms (simulated throttling). */
  lcpMs: number | null;
  cls: number | null;
  /** total-byte-weight: every byte the page's requests transferred. */
  bytes: number | null;
  /** Per category under 100: the failing audits. */
  failing: Partial<Record<Category, FailedAudit[]>>;
  /** Lighthouse's own error for the page (it did not load, no paint...), when any. */
  runtimeError?: string;
  /** Warnings Lighthouse gave about the run (a redirect, a page that answered slowly...). */
  warnings: string[];
  lighthouseVersion: string;
  /** Lighthouse's estimate of this machine's speed (its CPU benchmark), to compare runs. */
  benchmarkIndex?: number;
}

const UNSCORED = new Set(['notApplicable', 'informative', 'manual']);

function summarize(lhr: LighthouseResult): Audit {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? null;
  const scores = {} as Record<Category, number | null>;
  const failing: Audit['failing'] = {};
  for (const category of CATEGORIES) {
    const c = lhr.categories[category];
    const score = c?.score ?? null;
    scores[category] = score === null ? null : Math.round(score * 100);
    if (!c || scores[category] === 100) continue;
    const failed: FailedAudit[] = [];
    for (const ref of c.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || UNSCORED.has(audit.scoreDisplayMode)) continue;
      if (audit.score !== null && audit.score >= 0.9) continue;
      failed.push({
        id: ref.id,
        score: audit.score,
        display: audit.errorMessage ?? (audit.displayValue || undefined),
      });
    }
    failing[category] = failed;
  }
  return {
    scores,
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    bytes: numeric('total-byte-weight'),
    failing,
    runtimeError: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : undefined,
    warnings: lhr.runWarnings,
    lighthouseVersion: lhr.lighthouseVersion,
    benchmarkIndex: lhr.environment?.benchmarkIndex,
  };
}

/**
 * Lighthouse over `url` in the Chromium listening for DevTools on `port`: its default settings
 * (a mobile phone's screen, simulated slow 4G and a 4x slower CPU; the browser's cache and the
 * origin's storage cleared first), the four categories. `reportFile`: where to write the whole
 * report as JSON (it opens in the Lighthouse viewer, https://googlechrome.github.io/lighthouse/viewer/).
 */
export async function runLighthouse(url: string, port: number, reportFile?: string): Promise<Audit> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error('Lighthouse returned no result');
  if (reportFile) writeFileSync(reportFile, result.report as string);
  return summarize(result.lhr);
}
