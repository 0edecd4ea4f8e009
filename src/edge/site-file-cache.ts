// The files of deployments, kept in memory by this process. Deployments never change, so an entry
// (or the knowledge that a path is absent) stays true for as long as the deployment exists;
// compressed variants are made once, on first request. Bounded by bytes, least recently used first out.
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { isTextType } from '../modules/files/content.ts';
import type { ServedFile, SitesService } from '../modules/publishing/sites.ts';

export interface CachedFile extends ServedFile {
  gzip?: Buffer;
  br?: Buffer;
}

const DEFAULT_MAX_BYTES = 64 * 1_048_576;
/** Smaller bodies are not worth compressing. */
const COMPRESS_FROM_BYTES = 512;

export class SiteFileCache {
  private readonly entries = new Map<string, CachedFile | null>();
  private bytes = 0;

  constructor(
    private readonly sites: SitesService,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {}

  async get(deploymentId: string, path: string): Promise<CachedFile | null> {
    const key = `${deploymentId}\u0000${path}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Re-insert: Map order is the recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const file = await this.sites.deploymentFile(deploymentId, path);
    this.remember(key, file);
    return file;
  }

  /** The body to send for `acceptEncoding`, compressed when worth it. */
  encode(file: CachedFile, acceptEncoding: string | undefined): { body: Buffer; encoding?: 'br' | 'gzip' } {
    if (!acceptEncoding || file.content.length < COMPRESS_FROM_BYTES || !isTextType(file.contentType)) return { body: file.content };
    if (/\bbr\b/.test(acceptEncoding)) {
      file.br ??= this.grow(brotliCompressSync(file.content, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }));
      return { body: file.br, encoding: 'br' };
    }
    if (/\bgzip\b/.test(acceptEncoding)) {
      file.gzip ??= this.grow(gzipSync(file.content, { level: 9 }));
      return { body: file.gzip, encoding: 'gzip' };
    }
    return { body: file.content };
  }

  private grow(buffer: Buffer): Buffer {
    this.bytes += buffer.length;
    return buffer;
  }

  private remember(key: string, file: CachedFile | null): void {
    this.entries.set(key, file);
    this.bytes += (file?.content.length ?? 0) + key.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= (entry?.content.length ?? 0) + (entry?.gzip?.length ?? 0) + (entry?.br?.length ?? 0) + oldest.length;
    }
  }
}
