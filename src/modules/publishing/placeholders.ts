// A placeholder never reaches a live site. The generator marks each fact it still needs from the
// owner (`data-sw-todo`: "Add your phone number"); the builder highlights them. Publishing leaves
// every one out, and with it what is left with nothing real in it: a card, a list item, a
// paragraph, a question without its answer, a section with only its heading, and a whole page
// with nothing in its main content (with the links that led to it or to a section that went).
// A table cell is emptied rather than removed, so the table keeps its columns.
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { withoutPlaceholderMark } from '../files/text-edit.ts';

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
 * The page without its placeholders (see the file's comment). `isDead`: whether a link leads
 * nowhere any more (a page that went, a section that went); such a link in running text keeps
 * its words, any other goes like a placeholder.
 */
export function withoutPlaceholders(html: string, isDead?: (href: string) => boolean): PagePlaceholders {
  if (!html.includes(PLACEHOLDER_ATTRIBUTE) && !isDead)
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
  const unwrapped = new Set<Element>();
  const leftOut: string[] = [];
  const starts: Element[] = [];
  for (const el of all) {
    const placeholder = el.attrs.some((a) => a.name === PLACEHOLDER_ATTRIBUTE);
    const href = el.tagName === 'a' ? attr(el, 'href') : undefined;
    const dead = !placeholder && href !== undefined && isDead !== undefined && isDead(href);
    if (!placeholder && !dead) continue;
    if (placeholder) leftOut.push(textOf(el).trim());
    if (dead && inRunningText(el)) unwrapped.add(el);
    else if (CELLS.has(el.tagName)) emptied.add(el);
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
    if (!location || hasGoneAncestor(el, gone, emptied)) continue;
    if (gone.has(el)) {
      edits.push(lineOf(html, location.startOffset, location.endOffset));
      for (const inner of [el, ...descendants(el)]) {
        const id = attr(inner, 'id');
        if (id) removedIds.push(id);
      }
    } else if (unwrapped.has(el) && location.startTag && location.endTag) {
      // The words stay, the link goes.
      edits.push({ start: location.endTag.startOffset, end: location.endTag.endOffset });
      edits.push({ start: location.startTag.startOffset, end: location.startTag.endOffset });
    } else if (emptied.has(el) && location.startTag) {
      // An emptied cell loses its marker and highlight too (as text-edit.ts does once it is filled).
      const tag = withoutPlaceholderMark(
        html.slice(location.startTag.startOffset, location.startTag.endOffset),
      );
      // A cell whose end tag is left out ends where its content does.
      const end = location.endTag?.startOffset ?? location.endOffset;
      edits.push({ start: location.startTag.startOffset, end, text: tag });
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

/** Inside something removed or emptied: its own edit would overlap that one's. */
function hasGoneAncestor(el: Element, gone: Set<Element>, emptied: Set<Element>): boolean {
  for (let up = el.parentNode; up && isElement(up); up = up.parentNode)
    if (gone.has(up) || emptied.has(up)) return true;
  return false;
}

/** A link among words of its parent (a sentence), not an item of a list or a button row. */
function inRunningText(el: Element): boolean {
  const parent = el.parentNode;
  if (!parent || !isElement(parent) || ['li', 'nav'].includes(parent.tagName)) return false;
  return parent.childNodes.some(
    (n) => !isElement(n) && 'value' in n && n.nodeName === '#text' && n.value.trim() !== '',
  );
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

/** What publishing a site's pages leaves out, and each page as it goes live. */
export interface PlaceholderPlan {
  /** Each placeholder's text, by page. */
  placeholders: { page: string; text: string }[];
  /** Pages left with nothing real in their main content: not published. */
  pages: string[];
  /** The page as it goes live: without its placeholders and the links to what went. */
  page(path: string, html: string): string;
}

const ORIGIN = 'https://site.invalid';

/**
 * Pass one over a site's pages (read one at a time; null: not text, left alone): what each
 * leaves out, and which pages go whole (never `index.html` nor `keep`).
 */
export async function planPlaceholders(
  paths: readonly string[],
  read: (path: string) => Promise<string | null>,
  keep: string,
): Promise<PlaceholderPlan> {
  const found = new Map<string, { leftOut: string[]; removedIds: Set<string>; empty: boolean }>();
  for (const path of paths) {
    const html = await read(path);
    if (html === null) continue;
    const page = withoutPlaceholders(html);
    if (page.leftOut.length > 0)
      found.set(path, { leftOut: page.leftOut, removedIds: new Set(page.removedIds), empty: page.empty });
  }
  const dropped = new Set(
    [...found]
      .filter(([path, page]) => page.empty && path !== 'index.html' && path !== keep)
      .map(([path]) => path),
  );
  /** Whether a link on page `from` leads to a page or a section that went, resolved as a browser would. */
  const isDeadFrom = (from: string) => (href: string) => {
    let target: URL;
    try {
      target = new URL(href, `${ORIGIN}/${from}`);
    } catch {
      return false;
    }
    if (target.origin !== ORIGIN) return false;
    let file: string;
    try {
      file = decodeURIComponent(target.pathname.slice(1));
    } catch {
      return false;
    }
    if (file === '' || file.endsWith('/')) file += 'index.html';
    if (dropped.has(file)) return true;
    return target.hash.length > 1 && (found.get(file)?.removedIds.has(target.hash.slice(1)) ?? false);
  };
  const anyGone = dropped.size > 0 || [...found.values()].some((page) => page.removedIds.size > 0);
  return {
    placeholders: [...found].flatMap(([page, f]) => f.leftOut.map((text) => ({ page, text }))),
    pages: [...dropped],
    page: (path, html) => {
      const own = found.has(path) ? withoutPlaceholders(html).html : html;
      return anyGone ? withoutPlaceholders(own, isDeadFrom(path)).html : own;
    },
  };
}
