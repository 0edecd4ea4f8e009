// The `<img>` elements of a generated page made responsive at publish (issue 30): a `srcset` of the
// image's copies (`?w=`, formats.ts) with `sizes` for the generator's layout, its `width` and
// `height` so nothing shifts while it loads, and `loading="lazy"` on every image but the hero's
// (the picture a visitor sees at once, fetched first with high priority). Only attributes are added or
// changed, inside each start tag; every other byte stays where it was. Pages not made by the
// generator keep their images as written: their layout is not known (the `?w=` form is theirs).
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { copyUrl, COPY_WIDTHS, MAX_COPY_WIDTH, rasterFormatOf } from './formats.ts';
import { readHeader } from './header.ts';

type Element = DefaultTreeAdapterMap['element'];
type Parent = DefaultTreeAdapterMap['parentNode'];

export interface ImageSize {
  width: number;
  height: number;
  /** More than one frame: sent as it is, so it has no copies. */
  animated?: boolean;
}

/** The size of the site's image at `path`; undefined when the site has no such image. */
export type ImageSizeOf = (path: string) => Promise<ImageSize | undefined>;

/** Sizes read once per path from the images' headers; `read` gives a file's bytes (undefined: none). */
export function imageSizes(read: (path: string) => Promise<Buffer | undefined>): ImageSizeOf {
  const known = new Map<string, Promise<ImageSize | undefined>>();
  return (path) => {
    let size = known.get(path);
    if (!size) {
      size = read(path).then(async (content) => {
        const header = content && (await readHeader(content));
        return header && { width: header.width, height: header.height, animated: header.pages > 1 };
      });
      known.set(path, size);
    }
    return size;
  };
}

/**
 * How wide the generator's pictures are drawn (providers/builtin render.ts): beside the text, half
 * of the 1120-pixel column on wide screens, the column (the screen less 2.5rem) on narrow ones; a
 * gallery's tiles, four, three, two or one to a row.
 */
export const GENERATED_SIZES = '(min-width: 1160px) 560px, (min-width: 720px) 50vw, calc(100vw - 2.5rem)';
export const GALLERY_SIZES =
  '(min-width: 1160px) 270px, (min-width: 800px) 33vw, (min-width: 560px) 50vw, calc(100vw - 2.5rem)';

const isElement = (node: DefaultTreeAdapterMap['node']): node is Element => 'tagName' in node;
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;

/** Whether `el` or an element around it has the class `name`. */
function within(el: Element, name: string): boolean {
  let node: Parent | null = el;
  while (node && isElement(node)) {
    if ((attr(node, 'class') ?? '').split(/\s+/).includes(name)) return true;
    node = node.parentNode;
  }
  return false;
}

/** The elements of `html` named `tags`, in document order (templates' contents included). */
function elements(html: string, tags: string[]): Element[] {
  const found: Element[] = [];
  const walk = (node: Parent) => {
    const children = 'content' in node ? (node.content as Parent).childNodes : node.childNodes;
    for (const child of children)
      if (isElement(child)) {
        if (tags.includes(child.tagName)) found.push(child);
        walk(child);
      }
  };
  walk(parse(html, { sourceCodeLocationInfo: true }));
  return found;
}

/** The site path an image's `src` names from the page at `pagePath`; undefined when it is elsewhere. */
export function sitePath(src: string, pagePath: string): string | undefined {
  if (/^[a-z][a-z\d+.-]*:|^\/\//i.test(src.trim())) return undefined; // another origin, or data:
  try {
    const base = new URL(`http://site.invalid/${pagePath}`);
    const url = new URL(src.trim(), base);
    // A query or a fragment is the page's own: its copies' URLs could not be made from it.
    if (url.origin !== base.origin || url.search || url.hash) return undefined;
    return decodeURIComponent(url.pathname.slice(1));
  } catch {
    return undefined;
  }
}

/** The `srcset` of the copies of an image `size.width` pixels wide at `src`. */
export function srcsetOf(src: string, width: number): string {
  const own = Math.min(width, MAX_COPY_WIDTH);
  const widths = [...COPY_WIDTHS.filter((w) => w < own), own];
  return widths.map((w) => `${copyUrl(src, w)} ${w}w`).join(', ');
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The page with its images made responsive (see the file's comment). */
export async function responsiveImages(html: string, pagePath: string, sizeOf: ImageSizeOf): Promise<string> {
  if (!/<img\b/i.test(html)) return html;
  const edits: { at: number; end: number; text: string }[] = [];
  for (const img of elements(html, ['img'])) {
    const location = img.sourceCodeLocation?.startTag;
    const src = attr(img, 'src');
    const path = src === undefined ? undefined : sitePath(src, pagePath);
    const size = path && rasterFormatOf(path) ? await sizeOf(path) : undefined;
    if (!location || !src || !size || size.animated) continue;
    const hero = attr(img, 'data-sw-picture') === 'hero' || within(img, 'hero');
    const set = new Map<string, string>();
    if (attr(img, 'srcset') === undefined) {
      set.set('srcset', srcsetOf(src.trim(), size.width));
      if (attr(img, 'sizes') === undefined)
        set.set('sizes', within(img, 'gallery') ? GALLERY_SIZES : GENERATED_SIZES);
    }
    if (attr(img, 'width') === undefined && attr(img, 'height') === undefined) {
      set.set('width', String(size.width));
      set.set('height', String(size.height));
    }
    // The hero's picture is the one seen at once: never lazy, fetched first. Any other may be
    // far down the page (a gallery's first tile on a phone): lazy, so it never delays the hero.
    if (hero) {
      if (attr(img, 'fetchpriority') === undefined) set.set('fetchpriority', 'high');
    } else if (attr(img, 'loading') === undefined) set.set('loading', 'lazy');
    const tag = html.slice(location.startOffset, location.endOffset);
    let rewritten = hero ? withoutAttribute(tag, 'loading', 'lazy') : tag;
    const added = [...set].map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
    // Before `>`, or before `/>` when the slash closes the tag (not the end of an unquoted value).
    const close = /(?<=["'\s])\/>$/.test(rewritten) ? rewritten.length - 2 : rewritten.length - 1;
    const head = rewritten.slice(0, close).trimEnd();
    rewritten = `${head}${added}${close === rewritten.length - 2 ? ' ' : ''}${rewritten.slice(close)}`;
    if (rewritten !== tag) edits.push({ at: location.startOffset, end: location.endOffset, text: rewritten });
  }
  let out = html;
  for (const edit of edits.reverse()) out = out.slice(0, edit.at) + edit.text + out.slice(edit.end);
  return out;
}

/** A start tag without `name="value"` (any quoting, any case). */
function withoutAttribute(tag: string, name: string, value: string): string {
  const pattern = new RegExp(`\\s${name}\\s*=\\s*(?:"${value}"|'${value}'|${value}(?=[\\s/>]))`, 'i');
  return tag.replace(pattern, '');
}

/**
 * The copies a page's pictures ask for: each `<img src>` (at the image's own width) and each
 * candidate of an `<img>` or `<source>` `srcset` (at its `?w=`), as site paths.
 */
export function pictureRefs(html: string, pagePath: string): { path: string; width?: number }[] {
  if (!/<(?:img|source)\b/i.test(html)) return [];
  const refs: { path: string; width?: number }[] = [];
  const add = (url: string) => {
    const [bare, query = ''] = url.split('?', 2) as [string, string?];
    const w = new URLSearchParams(query).get('w');
    const path = sitePath(bare, pagePath);
    if (path && rasterFormatOf(path))
      refs.push(w && /^\d{1,5}$/.test(w) ? { path, width: Number(w) } : { path });
  };
  for (const el of elements(html, ['img', 'source'])) {
    const src = attr(el, 'src');
    if (src && el.tagName === 'img') add(src);
    for (const candidate of (attr(el, 'srcset') ?? '').split(',')) {
      const url = candidate.trim().split(/\s+/)[0];
      if (url) add(url);
    }
  }
  return refs;
}
