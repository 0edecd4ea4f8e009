// Changes a person made to a builtin site outside the generator, read back before it renders the
// site again so that nothing they did is lost. The current pages are compared with what the brief
// renders now, tree by tree (parse5, the tree the browser builds):
// - a change to the words of an element that holds only text (and line breaks) in the page's body
//   is a text edit, as the builder's in-place edit makes one: it is kept. An element with
//   `data-sw="<key>"` keeps its text in the brief by that key; any other (a navigation link, a
//   button, a label) keeps it as a replaced text, applied to every element of that tag and class
//   that renders the same words;
// - a picture slot (`data-sw-picture`) that shows another image, as the builder's *Replace image*
//   leaves it (an `<img>` with its src and alt), is that image placed in the slot: kept in the
//   brief with its alt text;
// - any other change (markup, attributes, the stylesheet: the code editor or the files API) means
//   the page was changed by hand, and the generator does not render the site again over it.
// So an in-place text edit never stops a later prompt, whatever element it was made on.
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import type { SiteFile } from '../../modules/generations/provider.ts';
import type { Brief, ReplacedText } from './brief.ts';
import { sitePath } from '../../modules/images/responsive.ts';

type ChildNode = DefaultTreeAdapterMap['childNode'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];
type Element = DefaultTreeAdapterMap['element'];

const asText = (content: string | Buffer) =>
  typeof content === 'string' ? content : content.toString('utf8');
const isElement = (node: ChildNode): node is Element => 'tagName' in node;
/** Elements whose text is code, not words: compared as they are. */
const CODE = new Set(['script', 'style', 'textarea', 'template', 'title']);
/** The footer's year is not a change. */
const sameYear = (text: string) => text.replace(/© \d{4}\b/g, '©');

/** What the person changed, found by comparing the site's files with what the brief renders. */
export interface ReadBack {
  /** Pages (and the stylesheet) changed beyond their texts. */
  handEdited: string[];
  /** Changed texts of elements with a `data-sw` key. */
  texts: Record<string, string>;
  /** Changed texts of other elements. */
  replaced: ReplacedText[];
  /** Pictures placed in slots, by slot: the image's site path and its alt text. */
  pictures: Record<string, { path: string; alt: string }>;
}

export function readBack(files: SiteFile[], rendered: SiteFile[]): ReadBack {
  const now = new Map(files.map((f) => [f.path, asText(f.content)]));
  const found: ReadBack = { handEdited: [], texts: {}, replaced: [], pictures: {} };
  for (const file of rendered) {
    const current = now.get(file.path);
    if (current === undefined) continue;
    if (file.path.endsWith('.css')) {
      if (current !== asText(file.content)) found.handEdited.push(file.path);
    } else if (file.path.endsWith('.html')) {
      const changes: ReadBack = { handEdited: [], texts: {}, replaced: [], pictures: {} };
      if (sameTree(parse(asText(file.content)), parse(current), false, changes)) {
        Object.assign(found.texts, changes.texts);
        found.replaced.push(...changes.replaced);
        for (const [slot, picture] of Object.entries(changes.pictures)) {
          const path = sitePath(picture.path, file.path);
          if (path) found.pictures[slot] = { path, alt: picture.alt };
        }
      } else found.handEdited.push(file.path);
    }
  }
  return found;
}

/** The brief with what was read back: keyed texts by key, other texts as replacements (merged into the chain). */
export function withReadBack(brief: Brief, back: ReadBack): Brief {
  const replaced = brief.replaced.map((r) => ({ ...r }));
  for (const change of back.replaced) {
    // A text a replacement made that is changed again: that replacement says the new words.
    const earlier = replaced.find(
      (r) =>
        r.tag === change.tag && r.className === change.className && sameYear(r.to) === sameYear(change.from),
    );
    if (earlier) earlier.to = change.to;
    else if (
      !replaced.some(
        (r) =>
          r.tag === change.tag &&
          r.className === change.className &&
          sameYear(r.from) === sameYear(change.from),
      )
    )
      replaced.push(change);
  }
  const pictures = { ...brief.pictures };
  const alts: Record<string, string> = {};
  for (const [slot, picture] of Object.entries(back.pictures)) {
    pictures[slot] = picture.path;
    alts[`${slot}.alt`] = picture.alt;
  }
  return {
    ...brief,
    pictures,
    texts: { ...brief.texts, ...back.texts, ...alts },
    replaced: replaced.filter((r) => r.from !== r.to),
  };
}

/** The page with the brief's replaced texts applied (in order), as an in-place edit writes them. */
export function applyReplacedTexts(html: string, replaced: ReplacedText[]): string {
  let page = html;
  for (const rule of replaced) {
    const document = parse(page, { sourceCodeLocationInfo: true });
    const hits: Element[] = [];
    walkElements(document, false, (element) => {
      if (
        element.tagName === rule.tag &&
        (classOf(element) ?? '') === rule.className &&
        !keyOf(element) &&
        sameYear(textOf(element)) === sameYear(rule.from)
      )
        hits.push(element);
    });
    // From the end, so that the offsets of the earlier ones still hold.
    for (const element of hits.reverse()) {
      const at = element.sourceCodeLocation;
      if (!at?.startTag || !at.endTag) continue;
      const start = page
        .slice(at.startTag.startOffset, at.startTag.endOffset)
        .replace(/\s+data-sw-todo(?:="[^"]*")?/, '')
        .replace(/\sclass="todo(?: ([^"]*))?"/, (_m, rest?: string) => (rest ? ` class="${rest}"` : ''));
      page =
        page.slice(0, at.startTag.startOffset) +
        start +
        escapeText(rule.to) +
        page.slice(at.endTag.startOffset);
    }
  }
  return page;
}

const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r?\n/g, '<br>');

/** The element holds words alone (text and line breaks), in the body, and is no code. */
function holdsText(element: Element, inBody: boolean): boolean {
  return (
    inBody &&
    !CODE.has(element.tagName) &&
    element.childNodes.every((n) => n.nodeName === '#text' || n.nodeName === 'br')
  );
}

/** Its words as the builder's in-place edit reads them (line breaks as newlines). */
function textOf(element: Element): string {
  return element.childNodes
    .map((n) => (n.nodeName === '#text' ? (n as DefaultTreeAdapterMap['textNode']).value : '\n'))
    .join('');
}

const keyOf = (element: Element) => element.attrs.find((a) => a.name === 'data-sw')?.value;
const attrOf = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;
const slotOf = (element: Element) => attrOf(element, 'data-sw-picture');
const classOf = (element: Element) => normalClass(element.attrs.find((a) => a.name === 'class')?.value);

/** A placeholder loses `data-sw-todo` and its `todo` class once its text is written: not a change. */
function normalClass(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const rest = value
    .split(/\s+/)
    .filter((c) => c && c !== 'todo')
    .join(' ');
  return rest || undefined;
}

function attributesOf(element: Element): string {
  return (
    element.attrs
      // The generator's own markers: a site rendered before pictures had slots has no `data-sw-picture`.
      .filter(
        (a) =>
          a.name !== 'data-sw-todo' &&
          a.name !== 'data-sw-picture' &&
          !(a.name === 'class' && normalClass(a.value) === undefined),
      )
      .map((a) => `${a.name}=${a.name === 'class' ? normalClass(a.value) : a.value}`)
      .sort()
      .join('\u0000')
  );
}

function walkElements(node: ParentNode, inBody: boolean, visit: (element: Element) => void): void {
  for (const child of node.childNodes) {
    if (!isElement(child)) continue;
    const body = inBody || child.tagName === 'body';
    if (holdsText(child, body)) visit(child);
    else walkElements(child, body, visit);
  }
}

/** True when `mine` is `theirs` but for the words of text-only elements, which are collected. */
function sameTree(theirs: ParentNode, mine: ParentNode, inBody: boolean, changes: ReadBack): boolean {
  const a = theirs.childNodes;
  const b = mine.childNodes;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    // A picture slot showing an image (placed by Replace image), whatever it showed before.
    const slot = isElement(x) ? slotOf(x) : undefined;
    if (slot !== undefined && isElement(x) && isElement(y) && y.tagName === 'img' && slotOf(y) === slot) {
      const [src, alt] = [attrOf(y, 'src'), attrOf(y, 'alt') ?? ''];
      const same = x.tagName === 'img' && attrOf(x, 'src') === src && (attrOf(x, 'alt') ?? '') === alt;
      if (src && !same) {
        changes.pictures[slot] = { path: src, alt };
        continue;
      }
    }
    if (x.nodeName !== y.nodeName) return false;
    if (x.nodeName === '#text' || x.nodeName === '#comment') {
      const value = (n: ChildNode) => ('value' in n ? n.value : 'data' in n ? n.data : '');
      if (sameYear(value(x)) !== sameYear(value(y))) return false;
      continue;
    }
    if (!isElement(x) || !isElement(y)) {
      if (x.nodeName !== y.nodeName) return false;
      continue;
    }
    if (attributesOf(x) !== attributesOf(y)) return false;
    const body = inBody || x.tagName === 'body';
    if (
      x.tagName === 'template' &&
      !sameTree(
        (x as DefaultTreeAdapterMap['template']).content,
        (y as DefaultTreeAdapterMap['template']).content,
        body,
        changes,
      )
    )
      return false;
    if (holdsText(x, body) && holdsText(y, body)) {
      const [before, after] = [textOf(x), textOf(y)];
      if (sameYear(before) === sameYear(after)) continue;
      const key = keyOf(y);
      if (key) changes.texts[key] = after;
      else if (before.trim() === '')
        return false; // words where there were none: markup work, not an edit
      else changes.replaced.push({ tag: y.tagName, className: classOf(y) ?? '', from: before, to: after });
      continue;
    }
    if (!sameTree(x, y, body, changes)) return false;
  }
  return true;
}
