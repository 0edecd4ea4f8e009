// What an image's header says (sharp reads it without decoding a pixel): its format and its size
// as shown, after the EXIF rotation a phone writes.
import sharp from 'sharp';

export interface ImageHeader {
  format: string;
  width: number;
  height: number;
  hasAlpha: boolean;
  /** Frames: more than one for a moving GIF, WebP or AVIF. */
  pages: number;
}

/** The header of an image; undefined when sharp reads no image in the bytes. */
export function readHeader(content: Buffer): Promise<ImageHeader | undefined> {
  return sharp(content, { limitInputPixels: false })
    .metadata()
    .then((m) => {
      // Orientations 5 to 8 turn the picture a quarter: its width is the stored height.
      const turned = (m.orientation ?? 1) >= 5;
      return {
        format: m.format,
        width: (turned ? m.height : m.width) ?? 0,
        height: (turned ? m.width : m.height) ?? 0,
        hasAlpha: m.hasAlpha,
        pages: m.pages ?? 1,
      };
    })
    .catch(() => undefined);
}
