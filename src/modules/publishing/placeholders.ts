// A placeholder never reaches a live site. The generator marks each fact it still needs from the
// owner (`data-sw-todo`: "Add your phone number"); the builder highlights them. Publishing leaves
// every one out, and with it what is left with nothing real in it: a card, a list item, a
// paragraph, a question without its answer, a section with only its heading, and a whole page
// with nothing in its main content (with the links that led to it or to a section that went).
// A table cell is emptied rather than removed, so the table keeps its columns.
import { parse, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];
type Parent = DefaultTreeAdapterMap['parentNode'];

export const PLACEHOLDER_ATTRIBUTE = 'data-sw-todo';

/** Elements that go when nothing real is left in them. */
const UNITS = new Set(['li', 'p', 'article', 'figure', 'details', 'blockquote', 'section', 'ul', 'ol', 'dl']);
/** Text in these names what follows; alone it is nothing real. */
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'summary', 'figcaption', 'legend', 'caption']);
/** Content that is real without text. */
const EMBEDDED = new Set([
  'img',
  'picture',
  'video',
  'audio',
  'iframe',
  'form',
  'input',
  'select',
  'textarea',
  'canvas',
  'object',
  'embed',
  'table',
]);
/** Cells are emptied, not removed: a row keeps its columns. */
const CELLS = new Set(['td', 'th']);

const isElement = (node: Node | Parent): node is Element => 'tagName' in node;
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;

export interface PagePlaceholders {
  /** The page without its placeholders. */
  html: string;
  /** The text of each placeholder left out, in page order. */
  leftOut: string[];
  /** Ids of elements that went (their `#id` links go too). */
  removedIds: string[];
  /** True when the page's main content is left with nothing real: the page itself goes. */
  empty: boolean;
}

interface Edit {
  start: number;
  end: number;
  text?: string;
}

/**
 * The page without its placeholders (see the file's comment). `deadLinks`: hrefs that lead
 * nowhere any more (pages that went, sections of this page that went), removed like placeholders.
 */
export function withoutPlaceholders(
  html: string,
  deadLinks: ReadonlySet<string> = new Set(),
): PagePlaceholders {
  if (!html.includes(PLACEHOLDER_ATTRIBUTE) && deadLinks.size === 0)
    return { html, leftOut: [], removedIds: [], empty: false };
  const document = parse(html, { sourceCodeLocationInfo: true });
  const all: Element[] = [];
  const walk = (node: Parent) => {
    for (const child of node.childNodes)
      if (isElement(child)) {
        all.push(child);
        walk(child);
      }
  };
  walk(document);
  const gone = new Set<Element>();
  const emptied = new Set<Element>();
  const leftOut: string[] = [];
  const starts: Element[] = [];
  for (const el of all) {
    const placeholder = el.attrs.some((a) => a.name === PLACEHOLDER_ATTRIBUTE);
    const dead = el.tagName === 'a' && deadLinks.has(attr(el, 'href') ?? '');
    if (!placeholder && !dead) continue;
    if (placeholder) leftOut.push(textOf(el).trim());
    if (CELLS.has(el.tagName)) emptied.add(el);
    else gone.add(el);
    starts.push(el);
  }
  for (const el of starts) {
    for (let up = el.parentNode; up && isElement(up) && up.tagName !== 'body'; up = up.parentNode) {
      if (gone.has(up)) break;
      if (UNITS.has(up.tagName) && !hasReal(up, gone, emptied)) gone.add(up);
    }
  }
  const main = all.find((el) => el.tagName === 'main');
  const empty = main !== undefined && !hasReal(main, gone, emptied);
  const edits: Edit[] = [];
  const removedIds: string[] = [];
  for (const el of all) {
    const location = el.sourceCodeLocation;
    if (!location || hasGoneAncestor(el, gone)) continue;
    if (gone.has(el)) {
      edits.push(lineOf(html, location.startOffset, location.endOffset));
      for (const inner of [el, ...descendants(el)]) {
        const id = attr(inner, 'id');
        if (id) removedIds.push(id);
      }
    } else if (emptied.has(el) && location.startTag && location.endTag) {
      // An emptied cell loses its marker and highlight too (as text-edit.ts does once it is filled).
      const tag = html
        .slice(location.startTag.startOffset, location.startTag.endOffset)
        .replace(/\s+data-sw-todo(?:="[^"]*")?/, '')
        .replace(/\sclass="todo(?: ([^"]*))?"/, (_m, rest?: string) => (rest ? ` class="${rest}"` : ''));
      edits.push({ start: location.startTag.startOffset, end: location.endTag.startOffset, text: tag });
    }
  }
  let out = html;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + (edit.text ?? '') + out.slice(edit.end);
  return { html: out, leftOut, removedIds, empty };
}

/** An element's span, widened to its whole line when it stands alone on it (no blank line left behind). */
function lineOf(html: string, start: number, end: number): Edit {
  const lineStart = html.lastIndexOf('\n', start - 1) + 1;
  const newline = html.indexOf('\n', end);
  const lineEnd = newline < 0 ? html.length : newline;
  const alone = /^[ \t]*$/.test(html.slice(lineStart, start)) && /^[ \t]*$/.test(html.slice(end, lineEnd));
  return alone ? { start: lineStart, end: newline < 0 ? lineEnd : newline + 1 } : { start, end };
}

/** Whether anything real is left in `el` once `gone` is removed and `emptied` is emptied. */
function hasReal(el: Element, gone: Set<Element>, emptied: Set<Element>): boolean {
  if (emptied.has(el)) return false;
  for (const child of el.childNodes) {
    if (!isElement(child)) {
      if ('value' in child && child.nodeName === '#text' && child.value.trim() !== '') return true;
      continue;
    }
    if (gone.has(child) || HEADINGS.has(child.tagName) || child.tagName === 'svg') continue;
    if (EMBEDDED.has(child.tagName)) return true;
    if (hasReal(child, gone, emptied)) return true;
  }
  return false;
}

function hasGoneAncestor(el: Element, gone: Set<Element>): boolean {
  for (let up = el.parentNode; up && isElement(up); up = up.parentNode) if (gone.has(up)) return true;
  return false;
}

function descendants(el: Element): Element[] {
  const out: Element[] = [];
  for (const child of el.childNodes) if (isElement(child)) out.push(child, ...descendants(child));
  return out;
}

function textOf(el: Element): string {
  return el.childNodes
    .map((n) => (isElement(n) ? textOf(n) : 'value' in n ? n.value : ''))
    .join('')
    .replace(/\s+/g, ' ');
}

/** The hrefs that led to `path` from a page of the same site (flat or nested, relative or rooted). */
export function linksTo(path: string, fromPage: string): string[] {
  const depth = fromPage.split('/').length - 1;
  const relative = '../'.repeat(depth) + path;
  return [...new Set([relative, `/${path}`, ...(depth === 0 ? [`./${path}`] : [])])];
}
