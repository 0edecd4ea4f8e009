// The photos of `npm run bench:lighthouse`'s photo site: large JPEGs as a camera or a phone makes
// them (4000x3000, 4-5 MB), each under FILE_MAX_BYTES so that the files API takes it, and each
// different (no two share a blob or a copy). Made with sharp like test/helpers/images.ts `photo()`,
// but with detail at several scales, not noise alone: colour areas, shapes, fine structure and
// grain. Noise alone compresses like a photo as a JPEG, yet its AVIF and WebP copies come out a
// few KB (the encoders smooth it away), so the pages' bytes would be far below a real photo's;
// these come out near them (a 960-pixel AVIF copy of 100-150 KB).
import sharp from 'sharp';

export interface Photo {
  name: string;
  bytes: Buffer;
  width: number;
  height: number;
}

/** Random colours on a `w`x`h` grid, smoothly enlarged to `width`x`height` (raw RGB). */
function layer(random: () => number, w: number, h: number, width: number, height: number): Promise<Buffer> {
  const grid = Buffer.alloc(w * h * 3);
  for (let i = 0; i < grid.length; i++) grid[i] = (random() * 256) | 0;
  return sharp(grid, { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: 'cubic', fit: 'fill' })
    .raw()
    .toBuffer();
}

async function makePhoto(index: number, width: number, height: number, maxBytes: number): Promise<Buffer> {
  let seed = (index + 1) * 7919;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  // [grid cells across, weight]: areas, shapes, structure of about 8 pixels.
  const scales = [
    [12, 1],
    [60, 0.5],
    [Math.round(width / 8), 0.35],
  ] as const;
  const layers = await Promise.all(
    scales.map(async ([across, weight]) => ({
      pixels: await layer(random, across, Math.round((across * height) / width), width, height),
      weight,
    })),
  );
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) {
    let v = 128 + (random() - 0.5) * 40; // grain
    for (const { pixels, weight } of layers) v += (pixels[i]! - 128) * weight;
    raw[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  // A quality a camera uses; lower only when the file would be over the limit.
  for (let quality = 90; ; quality -= 5) {
    const bytes = await sharp(raw, { raw: { width, height, channels: 3 } })
      .withExif({ IFD0: { Make: 'Sitewright Bench Camera' } })
      .jpeg({ quality })
      .toBuffer();
    if (bytes.length <= maxBytes || quality <= 50) return bytes;
  }
}

/** `count` photos named images/photo-01.jpg, images/photo-02.jpg, ... */
export async function makePhotos(
  count: number,
  width: number,
  height: number,
  maxBytes: number,
): Promise<Photo[]> {
  const photos: Photo[] = [];
  for (let i = 0; i < count; i++)
    photos.push({
      name: `images/photo-${String(i + 1).padStart(2, '0')}.jpg`,
      bytes: await makePhoto(i, width, height, maxBytes),
      width,
      height,
    });
  return photos;
}
