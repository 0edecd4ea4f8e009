// The `<img>` elements of a generated page made responsive at publish (issue 30): a `srcset` of the
// image's copies (`?w=`, formats.ts) with `sizes` for the generator's layout, its `width` and
// `height` so nothing shifts while it loads, and `loading="lazy"` on every image but the first
// (the first picture, the one a visitor sees at once, loads first with high priority). Only attributes are added or
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
 * How wide the generator's pictures are drawn (providers/builtin render.ts): half of the 1120-pixel
 * column beside the text on wide screens, the whole width on narrow ones.
 */
export const GENERATED_SIZES = '(min-width: 1160px) 560px, (min-width: 720px) 50vw, 100vw';

const isElement = (node: DefaultTreeAdapterMap['node']): node is Element => 'tagName' in node;
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;

/** The `<img>` elements of `html`, in document order (templates' contents included). */
function images(html: string): Element[] {
  const found: Element[] = [];
  const walk = (node: Parent) => {
    const children = 'content' in node ? (node.content as Parent).childNodes : node.childNodes;
    for (const child of children)
      if (isElement(child)) {
        if (child.tagName === 'img') found.push(child);
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
    if (url.origin !== base.origin || url.search) return undefined;
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
  let first = true;
  for (const img of images(html)) {
    const location = img.sourceCodeLocation?.startTag;
    const src = attr(img, 'src');
    const path = src === undefined ? undefined : sitePath(src, pagePath);
    const size = path && rasterFormatOf(path) ? await sizeOf(path) : undefined;
    if (!location || !src || !size || size.animated) continue;
    const isFirst = first;
    first = false;
    const set = new Map<string, string>();
    if (attr(img, 'srcset') === undefined) {
      set.set('srcset', srcsetOf(src, size.width));
      if (attr(img, 'sizes') === undefined) set.set('sizes', GENERATED_SIZES);
    }
    if (attr(img, 'width') === undefined && attr(img, 'height') === undefined) {
      set.set('width', String(size.width));
      set.set('height', String(size.height));
    }
    // The first picture is the one seen at once (the hero): never lazy, fetched first.
    if (isFirst) {
      if (attr(img, 'fetchpriority') === undefined) set.set('fetchpriority', 'high');
    } else if (attr(img, 'loading') === undefined) set.set('loading', 'lazy');
    const tag = html.slice(location.startOffset, location.endOffset);
    let rewritten = isFirst ? withoutAttribute(tag, 'loading', 'lazy') : tag;
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
