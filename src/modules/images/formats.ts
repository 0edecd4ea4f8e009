// The raster images Sitewright serves in copies (issue 30): which files are such images, and what
// a served copy is (a width from a fixed list, a format the browser says it accepts).

export type RasterFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';
/** What a served copy is encoded as. A GIF's copies are PNGs of its first frame. */
export type CopyFormat = 'avif' | 'webp' | 'jpeg' | 'png';

const BY_EXTENSION: Record<string, RasterFormat> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  gif: 'gif',
};

/** Formats browsers cannot show: refused on upload with a word on what to do instead. */
export const UNSHOWN_EXTENSIONS: Record<string, string> = {
  heic: 'HEIC',
  heif: 'HEIF',
  tif: 'TIFF',
  tiff: 'TIFF',
};

export const CONTENT_TYPES: Record<CopyFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/**
 * The widths served copies come in; a request for another width gets the next one up. A fixed
 * list keeps what anyone can make the server encode bounded: at most these widths times three
 * formats per image, each made once. 800 is there for phones: a picture the width of a 412-pixel
 * screen at 1.75 device pixels per CSS pixel needs about 650.
 */
export const COPY_WIDTHS = [320, 480, 640, 800, 960, 1280, 1920, 2560] as const;
/** The widest copy: what a page that asks for no width gets of a larger photo. */
export const MAX_COPY_WIDTH = COPY_WIDTHS[COPY_WIDTHS.length - 1]!;

export function extensionOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 || dot < path.lastIndexOf('/') ? '' : path.slice(dot + 1).toLowerCase();
}

/** The raster format a file's name says it is; undefined for every other file. */
export function rasterFormatOf(path: string): RasterFormat | undefined {
  return BY_EXTENSION[extensionOf(path)];
}

/** The width of the copy to serve for a requested width (none: the image's own), never wider than the image. */
export function copyWidth(requested: number | undefined, intrinsic: number): number {
  const own = Math.min(intrinsic, MAX_COPY_WIDTH);
  if (requested === undefined) return own;
  const stock = COPY_WIDTHS.find((w) => w >= requested) ?? MAX_COPY_WIDTH;
  return Math.min(stock, own);
}

/**
 * The format of the copy for a browser's `Accept`: AVIF, else WebP, when it says it takes them;
 * else the image's own (a GIF's first frame as PNG; a WebP or AVIF as PNG when it has
 * transparency, JPEG when not).
 */
export function copyFormat(source: RasterFormat, hasAlpha: boolean, accept: string | undefined): CopyFormat {
  const takes = accepted(accept);
  if (takes.has('image/avif')) return 'avif';
  if (takes.has('image/webp')) return 'webp';
  if (source === 'jpeg' || source === 'png') return source;
  return source === 'gif' || hasAlpha ? 'png' : 'jpeg';
}

/** The media types an `Accept` header names with a quality above zero (wildcards are not a yes to AVIF). */
function accepted(accept: string | undefined): Set<string> {
  const types = new Set<string>();
  for (const part of (accept ?? '').slice(0, 1024).split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (type && !(q && Number(q.slice(2)) === 0)) types.add(type);
  }
  return types;
}

/** The URL of a copy `width` pixels wide of the image at `src` (the documented form: `?w=`). */
export function copyUrl(src: string, width: number): string {
  return `${src}${src.includes('?') ? '&' : '?'}w=${width}`;
}
