// What a raster image must be to be stored as a site file: what its name says it is, and within
// IMAGE_MAX_PIXELS. Read from the image's header only (no pixel is decoded), so a small file that
// claims a huge picture (a decompression bomb) is refused before anything would unpack it.
import sharp, { type Metadata } from 'sharp';
import { InvalidInputError, TooLargeError } from '../common/errors.ts';
import { extensionOf, rasterFormatOf, UNSHOWN_EXTENSIONS, type RasterFormat } from './formats.ts';

const NAMES: Record<RasterFormat, string> = {
  jpeg: 'JPEG',
  png: 'PNG',
  webp: 'WebP',
  avif: 'AVIF',
  gif: 'GIF',
};

/** The raster format sharp reads in an image's header (AVIF is HEIF with AV1 inside). */
function formatOf(meta: Metadata): RasterFormat | undefined {
  if (meta.format === 'heif') return meta.compression === 'av1' ? 'avif' : undefined;
  return (Object.keys(NAMES) as RasterFormat[]).find((f) => f === meta.format);
}

/** Refuses an image file that is not the image its name says, or too large a picture; other files pass. */
export async function checkImage(path: string, content: Buffer, maxPixels: number): Promise<void> {
  const unshown = UNSHOWN_EXTENSIONS[extensionOf(path)];
  if (unshown)
    throw new InvalidInputError(
      `File '${path}' is a ${unshown} image, which browsers do not show; save it as JPEG, PNG, WebP or AVIF`,
    );
  const expected = rasterFormatOf(path);
  if (!expected) return;
  let meta: Metadata;
  try {
    meta = await sharp(content, { limitInputPixels: false }).metadata();
  } catch {
    throw new InvalidInputError(
      `File '${path}' is not a ${NAMES[expected]} image (its bytes are no image sharp can read)`,
    );
  }
  const found = formatOf(meta);
  if (found !== expected)
    throw new InvalidInputError(
      `File '${path}' is named as a ${NAMES[expected]} image but holds ${found ? `a ${NAMES[found]} image` : `'${meta.format}'`}; name it for what it is`,
    );
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > maxPixels)
    throw new TooLargeError(
      `Image '${path}' is ${meta.width}×${meta.height} pixels (${mp(pixels)}); the limit is IMAGE_MAX_PIXELS = ${maxPixels} (${mp(maxPixels)})`,
    );
}

const mp = (pixels: number) => `${+(pixels / 1_000_000).toFixed(1)} megapixels`;
