// The builder's *Replace image*: the picture selected in the preview (an `<img>`, or a generated
// site's picture placeholder, an element with `data-sw-picture`) shows another of the project's
// images, with the alt text the person gives. Found like an in-place text edit (text-edit.ts);
// only that element's start tag (or, for a placeholder, the element) changes.
import { invalid } from '../common/errors.ts';
import { rasterFormatOf } from '../images/formats.ts';
import { elementAt } from './text-edit.ts';

export const MAX_ALT_TEXT = 1_000;
/** What can be shown in an `<img>`: the raster formats served as copies, and SVG drawings. */
export const isPicture = (path: string): boolean =>
  rasterFormatOf(path) !== undefined || /\.svg$/i.test(path);

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\r?\n/g, ' ');

/** The link from the page at `page` to the site file `image` (pages in folders need the way up). */
export function linkFrom(page: string, image: string): string {
  return `${'../'.repeat(page.split('/').length - 1)}${image}`;
}

/** Attributes of the old picture: the new one's are written (publishing adds its sizes again). */
const STALE = ['src', 'alt', 'srcset', 'sizes', 'width', 'height'];

/** The page with the picture at `selector` showing `image` (a site path) with `alt`. */
export function replaceImageElement(
  html: string,
  page: string,
  selector: string,
  image: string,
  alt: string,
): string {
  if (alt.length > MAX_ALT_TEXT) throw invalid(`field 'alt' is longer than ${MAX_ALT_TEXT} characters`);
  const element = elementAt(html, selector);
  const slot = element.attrs.find((a) => a.name === 'data-sw-picture')?.value;
  const location = element.sourceCodeLocation;
  if ((element.tagName !== 'img' && slot === undefined) || !location?.startTag)
    throw invalid(
      'The selected element is no picture: select an image, or a picture placeholder, in the preview',
    );
  // A <picture> chooses among its <source>s first: changing the <img> alone would show nothing new.
  const parent = element.parentNode;
  if (parent && 'tagName' in parent && parent.tagName === 'picture')
    throw invalid('This picture has other versions in a <picture> element: change it in the code editor');
  const attributes = ` src="${escapeAttribute(linkFrom(page, image))}" alt="${escapeAttribute(alt)}"`;
  if (element.tagName === 'img') {
    // Each stale attribute cut out where parse5 found it, from the last; the new ones after `<img`.
    const tag = location.startTag;
    const cuts = STALE.flatMap((name) => (location.attrs?.[name] ? [location.attrs[name]] : [])).sort(
      (a, b) => b.startOffset - a.startOffset,
    );
    let start = html.slice(tag.startOffset, tag.endOffset);
    for (const cut of cuts) {
      const from = cut.startOffset - tag.startOffset;
      const to = cut.endOffset - tag.startOffset;
      start = start.slice(0, from).trimEnd() + start.slice(to);
    }
    start = `<img${attributes}${start.slice(4)}`;
    return html.slice(0, tag.startOffset) + start + html.slice(tag.endOffset);
  }
  // A placeholder (a drawing) becomes the picture, in its place and with its class, as the
  // generator draws a placed picture (providers/builtin site.ts `picture`).
  const className = element.attrs.find((a) => a.name === 'class')?.value;
  const img = `<img${className ? ` class="${escapeAttribute(className)}"` : ''}${attributes} loading="lazy" data-sw-picture="${escapeAttribute(slot!)}">`;
  return html.slice(0, location.startOffset) + img + html.slice(location.endOffset);
}
