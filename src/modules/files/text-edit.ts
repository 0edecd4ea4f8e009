// In-place text edits from the builder's preview: the element is found in the page's own HTML by
// the selector the preview computed (`html > body:nth-child(2) > h1:nth-child(1)`, each step a tag
// and its place among its parent's elements, as the browser's DOM has it; parse5 builds the same
// tree), and only the text between its tags is replaced. Every other byte of the file is kept.
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { invalid } from '../common/errors.ts';

type Node = DefaultTreeAdapterMap['childNode'];
type ElementNode = DefaultTreeAdapterMap['element'];

const STEP = /^([a-z][a-z0-9-]*)(?::nth-child\((\d{1,5})\))?$/;
export const MAX_EDIT_TEXT = 10_000;

const isElement = (node: Node): node is Node & ElementNode => 'tagName' in node;

function steps(selector: string): { tag: string; index: number }[] {
  const parts = selector.split('>').map((s) => s.trim().toLowerCase());
  const parsed = parts.map((part) => {
    const m = STEP.exec(part);
    if (!m)
      throw invalid(`field 'selector': '${selector.slice(0, 200)}' is not a selector the builder makes`);
    return { tag: m[1]!, index: Number(m[2] ?? 1) };
  });
  if (parsed[0]?.tag !== 'html') throw invalid(`field 'selector' must start at html`);
  return parsed;
}

/**
 * The element of `html` at `selector` (parsed with source locations); a clear error when the page
 * no longer has it.
 */
export function elementAt(html: string, selector: string): ElementNode {
  const document = parse(html, { sourceCodeLocationInfo: true });
  let element = document.childNodes.find(isElement) as ElementNode | undefined;
  for (const step of steps(selector).slice(1)) {
    const next = element?.childNodes.filter(isElement)[step.index - 1];
    if (!next || next.tagName !== step.tag) element = undefined;
    else element = next;
    if (!element) break;
  }
  if (!element)
    throw invalid(
      'That element is no longer in the page (it may have changed since the preview loaded): reload the preview and select it again',
    );
  return element;
}

/** The page with the text of the element at `selector` replaced by `text` (escaped; line breaks kept). */
export function replaceElementText(html: string, selector: string, text: string): string {
  if (text.length > MAX_EDIT_TEXT) throw invalid(`field 'text' is longer than ${MAX_EDIT_TEXT} characters`);
  const element = elementAt(html, selector);
  const textOnly = element.childNodes.every((n) => n.nodeName === '#text' || n.nodeName === 'br');
  if (!textOnly)
    throw invalid(
      'Only an element that holds text alone can be edited in place; use a prompt or the code editor for this one',
    );
  const location = element.sourceCodeLocation;
  if (!location?.startTag || !location.endTag)
    throw invalid('That element has no end tag in the page’s HTML; edit it in the code editor');
  const escaped = text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r?\n/g, '<br>');
  // A generated site's placeholder (data-sw-todo, "Add your phone number") is no longer one once
  // its text is written: it loses the marker and its highlight.
  const tag = withoutPlaceholderMark(html.slice(location.startTag.startOffset, location.startTag.endOffset));
  return (
    html.slice(0, location.startTag.startOffset) + tag + escaped + html.slice(location.endTag.startOffset)
  );
}

/** A start tag without a placeholder's marker (`data-sw-todo`) and highlight (class `todo`). */
export function withoutPlaceholderMark(startTag: string): string {
  if (!startTag.includes('data-sw-todo')) return startTag;
  return startTag
    .replace(/\s+data-sw-todo(?:="[^"]*")?/, '')
    .replace(/\sclass="todo(?: ([^"]*))?"/, (_m, rest?: string) => (rest ? ` class="${rest}"` : ''));
}
