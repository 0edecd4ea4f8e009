// The quality gate a generated site passes before it is written: every HTML page is valid HTML
// (html-validate, its recommended rules less the purely stylistic ones), has a non-empty <title>
// and exactly one <h1>, and every internal link or asset reference (href, src, srcset; url() in
// stylesheets) resolves to a file of the site the way the site server resolves it. Pure and
// synchronous, so anything may call it (the OpenAI-compatible provider, the benchmark on the
// builtin generator's sites).
import { HtmlValidate, StaticConfigLoader, type RuleConfig } from 'html-validate';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import type { SiteFile } from '../../modules/generations/provider.ts';
import { siteFileCandidates } from '../../modules/files/paths.ts';

type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['document'];
type ElementNode = DefaultTreeAdapterMap['element'];

export interface Problem {
  path: string;
  /** The html-validate rule, or `link`, `title`, `h1`. */
  rule: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * Rules of `html-validate:recommended` switched off: each is about how correct markup is written,
 * not whether it is correct, accessible or working, and a well-made modern page may break it.
 */
const RELAXED: RuleConfig = {
  'doctype-style': 'off', // `<!doctype html>` in lower case is as valid as `<!DOCTYPE html>`
  'attr-quotes': 'off', // single, double or no quotes are all valid HTML
  'void-style': 'off', // `<br>` and `<br />` are both valid
  'no-trailing-whitespace': 'off', // invisible, harmless
  'no-inline-style': 'off', // style="" is valid, often used for one-off values and in inline SVG
  'long-title': 'off', // a descriptive title over 70 characters is a SEO taste, not an error
  'attr-case': 'off', // attribute names are case-insensitive
  'element-case': 'off', // element names are case-insensitive
  'attribute-boolean-style': 'off', // `hidden`, `hidden=""` and `hidden="hidden"` are equivalent
  'attribute-empty-style': 'off', // `alt` and `alt=""` are equivalent
  'no-implicit-close': 'off', // an unclosed <p> or <li> closed by its successor is valid HTML
  'no-implicit-button-type': 'off', // type="submit" is the defined default; outside a form it is harmless
  'no-implicit-input-type': 'off', // type="text" is the defined default
  'no-redundant-role': 'off', // <nav role="navigation"> repeats the implicit role: redundant, not wrong
  'no-redundant-for': 'off', // a label both wrapping and naming its input: redundant, not wrong
  'prefer-tbody': 'off', // the parser inserts <tbody>; writing it is a matter of style
  'tel-non-breaking': 'off', // typographic advice on phone numbers
  'script-type': 'off', // type="text/javascript" is obsolete but harmless
  'no-raw-characters': ['error', { relaxed: true }], // a plain `&` that cannot start a character reference is valid HTML5
  'valid-id': ['error', { relaxed: true }], // HTML5 allows any id without spaces (`_gotcha`); the strict mode is about CSS selector taste
  'aria-label-misuse': ['error', { allowAnyNamable: true }], // naming a <ul> or <section> is allowed by ARIA; prohibited uses still fail
  // From `html-validate:document`, which `recommended` leaves out because it also checks fragments:
  // these are whole pages.
  'missing-doctype': 'error', // without one the browser renders in quirks mode
  'input-missing-label': 'error', // a form field nobody can name is unusable with a screen reader
  'no-missing-references': 'error', // aria-labelledby/aria-describedby/for pointing at no id
};

let validator: HtmlValidate | undefined;
const htmlValidate = () =>
  (validator ??= new HtmlValidate(
    new StaticConfigLoader({ extends: ['html-validate:recommended'], rules: RELAXED }),
  ));

const isHtml = (path: string) => /\.html?$/i.test(path);

/**
 * Validator findings by page path and content: checking a site again after a few files changed
 * (an edit, a repair) validates only those; a link's target depends on the whole site and is always
 * checked again.
 */
export type ValidationCache = Map<string, Problem[]>;

/** Every problem of the site, page by page (empty when it passes). */
export function checkSiteProblems(files: SiteFile[], cache?: ValidationCache): Problem[] {
  const paths = new Set(files.map((f) => f.path));
  const problems: Problem[] = [];
  if (!paths.has('index.html'))
    problems.push({ path: 'index.html', rule: 'missing', message: 'the site has no index.html' });
  for (const file of files) {
    if (typeof file.content !== 'string') continue;
    if (isHtml(file.path)) problems.push(...checkPage(file.path, file.content, paths, cache));
    else if (/\.css$/i.test(file.path)) problems.push(...checkStylesheet(file.path, file.content, paths));
  }
  return problems;
}

/** The site's problems as lines a person (or a model) can act on: `path:line:column: message (rule)`. */
export function checkSite(files: SiteFile[]): string[] {
  return checkSiteProblems(files).map(formatProblem);
}

export function formatProblem(p: Problem): string {
  const at = p.line === undefined ? p.path : `${p.path}:${p.line}:${p.column ?? 1}`;
  return `${at}: ${p.message} (${p.rule})`;
}

/** What identifies a problem regardless of where in its file it moved (line numbers shift with edits). */
export const problemKey = (p: Problem) => `${p.path}\u0000${p.rule}\u0000${p.message}`;

function validate(path: string, html: string, cache: ValidationCache | undefined): Problem[] {
  const key = `${path}\u0000${html}`;
  const known = cache?.get(key);
  if (known) return known;
  const found: Problem[] = [];
  for (const result of htmlValidate().validateStringSync(html, path).results) {
    for (const m of result.messages)
      found.push({ path, rule: m.ruleId, message: m.message, line: m.line, column: m.column });
  }
  cache?.set(key, found);
  return found;
}

function checkPage(
  path: string,
  html: string,
  paths: Set<string>,
  cache: ValidationCache | undefined,
): Problem[] {
  const problems = [...validate(path, html, cache)];
  const document = parse(html, { sourceCodeLocationInfo: true });
  let titles = 0;
  let titleText = '';
  let h1 = 0;
  walk(document, (element) => {
    if (element.tagName === 'title' && element.namespaceURI === 'http://www.w3.org/1999/xhtml') {
      titles++;
      titleText += textOf(element);
    }
    if (element.tagName === 'h1') h1++;
    for (const attr of element.attrs) {
      const refs =
        attr.name === 'href' || attr.name === 'src'
          ? [attr.value]
          : attr.name === 'srcset'
            ? srcsetUrls(attr.value)
            : [];
      for (const ref of refs) {
        const target = internalTarget(ref, path);
        if (target !== null && !resolves(target, paths)) {
          const at = element.sourceCodeLocation;
          problems.push({
            path,
            rule: 'link',
            message: `<${element.tagName} ${attr.name}="${ref.slice(0, 200)}"> points to a file the site does not have`,
            line: at?.startLine,
            column: at?.startCol,
          });
        }
      }
    }
  });
  if (titles === 0 || !titleText.trim())
    problems.push({ path, rule: 'title', message: 'the page has no <title> with text' });
  if (h1 !== 1)
    problems.push({ path, rule: 'h1', message: `the page has ${h1} <h1> elements; it needs exactly one` });
  return problems;
}

function checkStylesheet(path: string, css: string, paths: Set<string>): Problem[] {
  const problems: Problem[] = [];
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  for (const m of withoutComments.matchAll(/url\(\s*(["']?)([^"')]*)\1\s*\)/gi)) {
    const target = internalTarget(m[2]!.trim(), path);
    if (target !== null && !resolves(target, paths)) {
      const line = withoutComments.slice(0, m.index).split('\n').length;
      problems.push({
        path,
        rule: 'link',
        message: `url(${m[2]!.slice(0, 200)}) points to a file the site does not have`,
        line,
      });
    }
  }
  return problems;
}

function walk(node: Node, visit: (element: ElementNode) => void): void {
  if ('tagName' in node) visit(node);
  for (const child of 'childNodes' in node ? node.childNodes : []) walk(child, visit);
}

function textOf(element: ElementNode): string {
  return element.childNodes.map((n) => ('value' in n && n.nodeName === '#text' ? n.value : '')).join('');
}

function srcsetUrls(value: string): string[] {
  return value
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);
}

/**
 * The site path a reference from `fromPath` points to, or null when it is not a file of the site
 * to check: empty, a fragment, a URL with a scheme (http:, mailto:, tel:, data:, ...), a
 * protocol-relative URL, or a form endpoint under /_forms/.
 */
export function internalTarget(ref: string, fromPath: string): string | null {
  const trimmed = ref.trim();
  if (
    trimmed === '' ||
    trimmed.startsWith('#') ||
    trimmed.startsWith('//') ||
    /^[a-z][a-z0-9+.-]*:/i.test(trimmed)
  )
    return null;
  let resolved: URL;
  try {
    resolved = new URL(trimmed, `http://site.invalid/${fromPath}`);
  } catch {
    return trimmed; // unparseable: reported as not resolving
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(resolved.pathname);
  } catch {
    pathname = resolved.pathname;
  }
  if (pathname === '/_forms' || pathname.startsWith('/_forms/')) return null;
  return pathname.replace(/^\/+/, '');
}

/** Whether the site server would answer `target` with a file of the site (the rule it serves by). */
function resolves(target: string, paths: Set<string>): boolean {
  return siteFileCandidates(target).paths.some((path) => paths.has(path));
}
