// What a published page tells search engines and the apps a link is shared in, written into its
// own HTML at publish time: the language, a canonical link, the icon the owner chose, a
// description, Open Graph and Twitter card tags, and (on the home page) JSON-LD. A tag the page
// already has is kept as the author wrote it; only what is missing is added, just before
// `</head>`, and every other byte of the page stays where it was. A page whose source has no
// `<head>` (a fragment) is left as it is: there is no head of the author's to add to.
import { parse, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

export interface PageFacts {
  /** The page's address on the live site (its canonical URL). */
  url: string;
  /** The site's name, when known (the owner's setting, else the generator's). */
  siteName: string | null;
  /** The settings' description: for a page without a meta description of its own. */
  description: string | null;
  /** What a shared link to this page says, over the page's own description (the home page's: the owner's). */
  shareDescription?: string | null;
  /** BCP 47: the page's `<html lang>` when the owner set one. */
  language: string | null;
  /** Absolute URL of the shared-link picture. */
  image: string | null;
  /** Site path of the icon the owner chose (`favicon.png`), replacing the page's own. */
  favicon: string | null;
  /** JSON-LD for this page (the home page's) given its title, or null. */
  structuredData: ((title: string) => object) | null;
  /** The 404 page: its language and icon only (it answers at every missing address). */
  notFound?: boolean;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

const isElement = (node: Node): node is Node & Element => 'tagName' in node;
const attr = (el: Element, name: string): string | undefined => el.attrs.find((a) => a.name === name)?.value;
const relTokens = (el: Element): string[] => (attr(el, 'rel') ?? '').toLowerCase().split(/\s+/);

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** JSON inside a script element: `<` escaped, so no text can close the element early. */
export function scriptJson(value: object): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const ICON_TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png', ico: 'image/x-icon' };

export interface DecoratedPage {
  html: string;
  /** False when the page asks not to be indexed (`<meta name="robots" content="noindex">`). */
  indexable: boolean;
}

/** The page with what it lacks added (see the file's comment). */
export function decoratePage(html: string, facts: PageFacts): DecoratedPage {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const root = document.childNodes.find(isElement);
  const head = root?.childNodes.find((n): n is Element => isElement(n) && n.tagName === 'head');
  if (!root || !head?.sourceCodeLocation?.startTag) return { html, indexable: true };
  const inHead = head.childNodes.filter(isElement);
  const edits: Edit[] = [];
  const indexable = !inHead.some(
    (el) =>
      el.tagName === 'meta' &&
      /^(?:robots|googlebot)$/i.test(attr(el, 'name') ?? '') &&
      /\b(?:noindex|none)\b/i.test(attr(el, 'content') ?? ''),
  );

  if (facts.language) edits.push(...languageEdit(root, facts.language));
  const tags: string[] = [];
  if (facts.favicon) {
    // The owner's choice replaces the page's own icons (not its apple-touch-icon).
    for (const el of inHead)
      if (el.tagName === 'link' && relTokens(el).includes('icon')) edits.push(removal(el));
    const type = ICON_TYPES[facts.favicon.split('.').pop()!.toLowerCase()];
    tags.push(`<link rel="icon" href="/${escapeAttribute(facts.favicon)}"${type ? ` type="${type}"` : ''}>`);
  }
  if (!facts.notFound) tags.push(...searchTags(inHead, facts));
  if (tags.length > 0) {
    const at = insertionPoint(head);
    edits.push({ start: at, end: at, text: `${tags.join('\n')}\n` });
  }
  return { html: applyEdits(html, edits), indexable };
}

function searchTags(inHead: Element[], facts: PageFacts): string[] {
  const metas = inHead.filter((el) => el.tagName === 'meta');
  const has = (key: 'name' | 'property', value: string) =>
    metas.some((el) => (attr(el, key) ?? '').toLowerCase() === value);
  const ownDescription = metas.find((el) => (attr(el, 'name') ?? '').toLowerCase() === 'description');
  const description =
    facts.shareDescription ??
    (ownDescription ? (attr(ownDescription, 'content') ?? '').trim() : facts.description);
  const titleEl = inHead.find((el) => el.tagName === 'title');
  const title = titleEl ? textOf(titleEl).trim() : '';
  const tags: string[] = [];
  const meta = (key: 'name' | 'property', name: string, value: string | null | undefined) => {
    if (value && !has(key, name)) tags.push(`<meta ${key}="${name}" content="${escapeAttribute(value)}">`);
  };
  if (!inHead.some((el) => el.tagName === 'link' && relTokens(el).includes('canonical')))
    tags.push(`<link rel="canonical" href="${escapeAttribute(facts.url)}">`);
  if (!ownDescription) meta('name', 'description', facts.description);
  meta('property', 'og:type', 'website');
  meta('property', 'og:site_name', facts.siteName);
  meta('property', 'og:title', title || facts.siteName);
  meta('property', 'og:description', description);
  meta('property', 'og:url', facts.url);
  meta('property', 'og:locale', facts.language && ogLocale(facts.language));
  meta('property', 'og:image', facts.image);
  meta('name', 'twitter:card', facts.image ? 'summary_large_image' : 'summary');
  meta('name', 'twitter:title', title || facts.siteName);
  meta('name', 'twitter:description', description);
  meta('name', 'twitter:image', facts.image);
  const hasJsonLd = inHead.some(
    (el) => el.tagName === 'script' && (attr(el, 'type') ?? '').toLowerCase() === 'application/ld+json',
  );
  if (facts.structuredData && !hasJsonLd)
    tags.push(
      `<script type="application/ld+json">${scriptJson(facts.structuredData(title || facts.siteName || ''))}</script>`,
    );
  return tags;
}

/** `pt-BR` -> `pt_BR`; a bare language stays as it is (Open Graph's locale form). */
function ogLocale(language: string): string {
  const [lang, region] = language.split('-');
  return region && /^[A-Z]{2}$/.test(region) ? `${lang}_${region}` : lang!;
}

/** What a page's sharing tags say (`og:title` -> its content), as an app showing its link reads them. */
export function sharingTags(html: string): Record<string, string> {
  const head = parse(html)
    .childNodes.find(isElement)
    ?.childNodes.find((n): n is Element => isElement(n) && n.tagName === 'head');
  const tags: Record<string, string> = {};
  for (const el of head?.childNodes.filter(isElement) ?? []) {
    const key = el.tagName === 'meta' ? (attr(el, 'property') ?? attr(el, 'name')) : undefined;
    const content = attr(el, 'content');
    if (key && content !== undefined && !(key in tags)) tags[key] = content;
  }
  return tags;
}

function textOf(el: Element): string {
  return el.childNodes.map((n) => ('value' in n ? n.value : '')).join('');
}

function languageEdit(root: Element, language: string): Edit[] {
  const location = root.sourceCodeLocation;
  if (!location?.startTag) return [];
  const value = `lang="${escapeAttribute(language)}"`;
  const existing = location.attrs?.lang;
  if (existing) return [{ start: existing.startOffset, end: existing.endOffset, text: value }];
  const at = location.startTag.startOffset + '<html'.length;
  return [{ start: at, end: at, text: ` ${value}` }];
}

/** The span of an element the owner's setting replaces. */
function removal(el: Element): Edit {
  const location = el.sourceCodeLocation!;
  return { start: location.startOffset, end: location.endOffset, text: '' };
}

/**
 * Where the added tags go: before `</head>`; in a head whose end tag is left out, after its last
 * element, else right after `<head>`.
 */
function insertionPoint(head: Element): number {
  const location = head.sourceCodeLocation!;
  if (location.endTag) return location.endTag.startOffset;
  const last = head.childNodes.at(-1)?.sourceCodeLocation?.endOffset;
  return last ?? location.startTag!.endOffset;
}

function applyEdits(html: string, edits: Edit[]): string {
  let out = html;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}
