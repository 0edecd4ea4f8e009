// Placing one of the project's images where a prompt says: on the picture the person selected in
// the preview ("use wedding1.png here"), or in the hero or the about section when the prompt names
// them. The place is a slot of the brief (site.ts `picture`), so the image stays there when the
// site is rendered again.
import type { ElementContext, SiteFile } from '../../modules/generations/provider.ts';

const IMAGE = /\.(?:png|jpe?g|gif|webp|avif|svg)$/i;
/** A file name with an image extension, as a prompt writes it ("images/wedding1.png", "Team Photo.JPG"). */
const NAMED = /[\p{L}\d_./-]*[\p{L}\d_-]\.(?:png|jpe?g|gif|webp|avif|svg)(?![\p{L}\d])/giu;

export type NamedImage = { path: string } | { missing: string };

/** The project image a prompt names, by path or by file name; or the name it gave that is no image of the project. */
export function namedImage(prompt: string, files: SiteFile[]): NamedImage | undefined {
  const names = [...prompt.matchAll(NAMED)].map((m) => m[0].replace(/^\.?\/+/, ''));
  if (names.length === 0) return undefined;
  const images = files.map((f) => f.path).filter((p) => IMAGE.test(p) && !p.startsWith('.'));
  for (const name of names) {
    const lower = name.toLowerCase();
    const found =
      images.find((p) => p.toLowerCase() === lower) ??
      images.find((p) => p.toLowerCase().endsWith(`/${lower}`));
    if (found) return { path: found };
  }
  return { missing: names[0]! };
}

/** The slot of the selected element: the one picture it is or holds; undefined when none or several. */
export function slotOf(element: ElementContext): string | undefined {
  const slots = new Set([...element.html.matchAll(/data-sw-picture="([^"]+)"/g)].map((m) => m[1]!));
  return slots.size === 1 ? [...slots][0] : undefined;
}

/** A slot the prompt names in words, when nothing is selected: "in the hero", "for the about section". */
export function slotNamed(prompt: string): string | undefined {
  if (/\b(?:hero|header|banner|top of the (?:home ?)?page|first section)\b/i.test(prompt)) return 'hero';
  if (/\babout\b/i.test(prompt)) return 'about';
  return undefined;
}

/** The site with the selected `<img>` of a page builtin did not make showing `path`; undefined when the element is no image. */
export function swapImage(files: SiteFile[], element: ElementContext, path: string): SiteFile[] | undefined {
  if (!/^<img\b/i.test(element.html)) return undefined;
  const page = files.find((f) => f.path === element.file && typeof f.content === 'string');
  const html = page?.content as string | undefined;
  const at = html?.indexOf(element.html) ?? -1;
  if (!page || html === undefined || at === -1) return undefined;
  // A link from the page's folder to the image (pages in sub-folders need the way up).
  const depth = element.file.split('/').length - 1;
  const src = `${'../'.repeat(depth)}${path}`.replace(/"/g, '&quot;');
  const swapped = /\ssrc=("[^"]*"|'[^']*'|[^\s>]+)/i.test(element.html)
    ? element.html.replace(/\ssrc=("[^"]*"|'[^']*'|[^\s>]+)/i, ` src="${src}"`)
    : element.html.replace(/^<img\b/i, `<img src="${src}"`);
  const withoutSrcset = swapped.replace(/\ssrcset=("[^"]*"|'[^']*'|[^\s>]+)/i, '');
  return files.map((f) =>
    f === page
      ? { path: f.path, content: html.slice(0, at) + withoutSrcset + html.slice(at + element.html.length) }
      : f,
  );
}
