// The served copies of a site's raster images: resized to a width from COPY_WIDTHS and encoded in
// the best format the browser accepts, with no metadata (the EXIF of a phone photo holds where it
// was taken). Each copy is made once, with sharp, and kept (repo.ts); at most two are encoded at a
// time, and one asked for by many requests at once is encoded once.
import sharp, { type Sharp } from 'sharp';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/index.ts';
import {
  CONTENT_TYPES,
  copyFormat,
  copyWidth,
  rasterFormatOf,
  type CopyFormat,
  type RasterFormat,
} from './formats.ts';
import { keepCopy, readCopy, type CopyKey } from './repo.ts';
import { readHeader, type ImageHeader } from './header.ts';
import type { ImageSize } from './responsive.ts';

// libvips' own cache would keep decoded pictures between requests; the copies are kept instead.
sharp.cache(false);

/** The source of a copy: a site file that is a raster image, with its blob's sha256. */
export interface ImageSource {
  path: string;
  content: Buffer;
  sha256: string;
}

/** Which copy a request gets: its key (also the cache's) and what it will be. */
export interface CopyPlan extends CopyKey {
  format: CopyFormat;
  source: RasterFormat;
}

export interface ImageCopy {
  content: Buffer;
  contentType: string;
  etag: string;
}

const MAX_ENCODING = 2;
/**
 * Visitors' copies waiting for a turn, at most: each waiting one holds its source's bytes, and
 * anyone can ask for copies not made yet. One more is answered 503 (edge/image-copy.ts).
 */
const MAX_WAITING = 16;
/** The most copies one publish warms. */
const WARM_MAX = 400;
/**
 * The encoder of each format. A PNG or GIF is mostly a drawing, a logo or a screenshot, whose
 * sharp edges and flat colours show the artefacts a photo hides: it gets a higher quality.
 */
const ENCODERS: Record<CopyFormat, (image: Sharp, drawing: boolean) => Sharp> = {
  // Effort 2 of 9: a 960-pixel photo in about a quarter of a second here, still far smaller than WebP.
  avif: (image, drawing) => image.avif({ quality: drawing ? 72 : 50, effort: 2 }),
  webp: (image, drawing) => image.webp({ quality: drawing ? 90 : 75 }),
  jpeg: (image) => image.jpeg({ quality: 78, mozjpeg: true }),
  png: (image) => image.png({ compressionLevel: 9, adaptiveFiltering: true }),
};

/** A copy's key: in `making`, and in the edge's file cache. */
export const keyOf = (plan: CopyKey) => `${plan.sha256}:${plan.width}:${plan.format}`;

export class ImageCopies {
  private readonly headers = new LRUCache<string, ImageHeader | false>({ max: 10_000 });
  private readonly making = new Map<string, Promise<Buffer | null>>();
  private encoding = 0;
  /** Copies this process has encoded (each made once: a test counts them). */
  encoded = 0;
  /** Visitors' copies waiting for a turn now (at most MAX_WAITING). */
  get waiting(): number {
    return this.queue.length;
  }
  /** Encodings waiting for a turn: a visitor's first, then the warming of a site just published. */
  private readonly queue: (() => void)[] = [];
  private readonly background: (() => void)[] = [];

  constructor(
    private readonly database: Database,
    private readonly maxPixels: number,
  ) {}

  /**
   * The copy a request for `width` (none: the image's own, up to MAX_COPY_WIDTH) with `accept`
   * gets; undefined when the file is served as it is: no raster image, one sharp cannot read or
   * larger than IMAGE_MAX_PIXELS (stored before the limit), or a GIF or moving image asked for at
   * its own size (a copy would stand still; a GIF holds no EXIF).
   */
  async plan(
    source: ImageSource,
    width: number | undefined,
    accept: string | undefined,
  ): Promise<CopyPlan | undefined> {
    const format = rasterFormatOf(source.path);
    if (!format) return undefined;
    const header = await this.header(source.sha256, async () => source.content);
    if (!header || header.width * header.height > this.maxPixels) return undefined;
    if (width === undefined && (format === 'gif' || header.pages > 1)) return undefined;
    return {
      sha256: source.sha256,
      width: copyWidth(width, header.width),
      format: copyFormat(format, header.hasAlpha, accept),
      source: format,
    };
  }

  /**
   * The copy `plan` names: kept, or made now (and kept). Undefined when sharp fails on the source
   * (remembered: it is then served as it is, never decoded again); `busy` when MAX_WAITING
   * visitors already wait for copies to be made (the edge answers 503 with Retry-After).
   */
  async copy(source: ImageSource, plan: CopyPlan): Promise<ImageCopy | 'busy' | undefined> {
    const key = keyOf(plan);
    let content = await readCopy(this.database.db, plan);
    if (!content) {
      let made = this.making.get(key);
      if (!made) {
        if (this.queue.length >= MAX_WAITING) return 'busy';
        made = this.withTurn(false, () => this.encode(source.content, plan)).finally(() =>
          this.making.delete(key),
        );
        this.making.set(key, made);
      }
      content = (await made) ?? undefined;
      if (!content) return undefined;
    }
    return {
      content,
      contentType: CONTENT_TYPES[plan.format],
      etag: `"${plan.sha256.slice(0, 24)}-${plan.width}-${plan.format}"`,
    };
  }

  /** The size of the image whose bytes have `sha256`, its header read once (from `read`); undefined when it is none. */
  async sizeOf(sha256: string, read: () => Promise<Buffer | undefined>): Promise<ImageSize | undefined> {
    const header = await this.header(sha256, read);
    return header && { width: header.width, height: header.height, animated: header.pages > 1 };
  }

  /** An image's header by its sha256, read once (from `read`'s bytes); undefined when it is none. */
  private async header(
    sha256: string,
    read: () => Promise<Buffer | undefined>,
  ): Promise<ImageHeader | undefined> {
    let header = this.headers.get(sha256);
    if (header === undefined) {
      const content = await read();
      if (!content) return undefined;
      header = (await readHeader(content)) ?? false;
      this.headers.set(sha256, header);
    }
    return header || undefined;
  }

  /**
   * Makes the copies `wanted` (images by path, each at a width or at its own) in `accept`'s format
   * that are not kept yet, one at a time, each only once no visitor waits for a turn: a site just
   * published has its pictures' copies before its first visitors ask (at most WARM_MAX of them).
   * A visitor may share an encoding that has started; none waits for one that has not.
   */
  async warm(
    wanted: readonly { path: string; width?: number }[],
    read: (path: string) => Promise<ImageSource | null>,
    accept = 'image/avif',
  ): Promise<number> {
    let made = 0;
    const sources = new Map<string, ImageSource | null>();
    for (const { path, width } of wanted.slice(0, WARM_MAX)) {
      if (!sources.has(path)) sources.set(path, await read(path));
      const source = sources.get(path);
      const plan = source && (await this.plan(source, width, accept));
      if (!source || !plan || (await readCopy(this.database.db, plan))) continue;
      const key = keyOf(plan);
      if (this.making.has(key)) continue;
      const content = await this.withTurn(true, async () => {
        // Asked for (and made, or started) while this waited for its turn: nothing to do.
        if (this.making.has(key) || (await readCopy(this.database.db, plan))) return null;
        const making = this.encode(source.content, plan).finally(() => this.making.delete(key));
        this.making.set(key, making);
        return making;
      });
      if (content) made++;
    }
    return made;
  }

  /**
   * The copy made and kept; null when sharp cannot make it (a truncated or broken image: it is
   * not tried again). A copy that cannot be kept (the database is busy) is still answered.
   */
  private async encode(content: Buffer, plan: CopyPlan): Promise<Buffer | null> {
    let made: Buffer;
    try {
      const image = sharp(content, { limitInputPixels: this.maxPixels, failOn: 'error', pages: 1 })
        .rotate()
        .resize({ width: plan.width, withoutEnlargement: true });
      const drawing = plan.source === 'png' || plan.source === 'gif';
      made = await ENCODERS[plan.format](image, drawing).toBuffer();
      this.encoded++;
    } catch {
      this.headers.set(plan.sha256, false);
      return null;
    }
    await keepCopy(this.database.db, plan, made).catch(() => undefined);
    return made;
  }

  private async withTurn<T>(background: boolean, work: () => Promise<T>): Promise<T> {
    await this.turn(background);
    try {
      return await work();
    } finally {
      this.done();
    }
  }

  /** Waits for a turn among MAX_ENCODING encoders; `background` turns come after the others. */
  private async turn(background: boolean): Promise<void> {
    if (this.encoding < MAX_ENCODING) this.encoding++;
    // done() hands its turn on.
    else await new Promise<void>((go) => (background ? this.background : this.queue).push(go));
  }

  private done(): void {
    const next = this.queue.shift() ?? this.background.shift();
    if (next) next();
    else this.encoding--;
  }
}
