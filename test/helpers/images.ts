// Real images for tests, made with sharp: photos with the EXIF a phone writes (where it was taken),
// and a decompression bomb: a small PNG whose pixels would take far more memory than its bytes.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A JPEG photo of `width`×`height` with noise (so it compresses like a photo) and GPS EXIF. */
export async function photo(width: number, height: number, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = width * 31 + height;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = (i / 3) % width;
    raw[i] = ((x * 200) / width + (seed % 50)) | 0;
  }
  const image = sharp(raw, { raw: { width, height, channels: 3 } }).withExif({
    IFD0: { Make: 'Sitewright Test Camera' },
    IFD3: {
      GPSLatitudeRef: 'N',
      GPSLatitude: '51/1 30/1 0/1',
      GPSLongitudeRef: 'W',
      GPSLongitude: '0/1 7/1 0/1',
    },
  });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

/** A 2×2 PNG. */
export function tinyPng(): Promise<Buffer> {
  return sharp({ create: { width: 2, height: 2, channels: 4, background: '#3366ff' } })
    .png()
    .toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A complete, valid greyscale PNG of `side`×`side` black pixels: a few KiB unpacking to side² bytes. */
export function pngBomb(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  const rows = Buffer.alloc((side + 1) * side); // each row: filter byte 0, then zeros
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Whether an image holds EXIF, and its format and size, as sharp reads them. */
export async function described(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return { format: meta.format, width: meta.width, height: meta.height, exif: meta.exif !== undefined };
}
