// Debian's Chromium through playwright-core, for what a person does in a browser, and the
// accessibility check every page they see must pass. Like the PostgreSQL and Redis suites, the
// browser suites run where Chromium is installed (CI installs it; test/global-setup.ts says when
// they are skipped).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** UPDATE_SCREENSHOTS=1: the main pages are written to docs/ as the tests pass them. */
export const SHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', ...extraArgs] });
}

/** axe-core's serious and critical violations on the page as it is, each as `rule: where`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, as @axe-core/playwright does: the page's CSP
  // (script-src 'self') governs its own scripts, not this, so the pages are tested under it.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}

/**
 * Collects what the page's Content Security Policy refused, as Chromium reports it (a console
 * message, or an error thrown where a script needed what was refused), from the page and its
 * frames. The tests expect it empty at the end, so a change that breaks under the CSP fails them.
 */
export function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  const record = (text: string) => {
    if (/Content Security Policy|violates/i.test(text)) violations.push(`${page.url()}: ${text}`);
  };
  page.on('console', (message) => record(message.text()));
  page.on('pageerror', (error) => record(error.message));
  return violations;
}

/** No serious accessibility violation on the page; with UPDATE_SCREENSHOTS=1 it is saved as docs/<shot>.png. */
export async function checkPage(page: Page, shot?: string): Promise<void> {
  expect(await seriousViolations(page), page.url()).toEqual([]);
  if (shot && SHOTS) await page.screenshot({ path: `docs/${shot}.png`, fullPage: false });
}
