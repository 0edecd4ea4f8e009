// The files of deployments, kept in memory by this process. Deployments never change, so an entry
// (or the knowledge that a path is absent) stays true for as long as the deployment exists. One
// cache bounded by bytes, least recently used out first; a compressed body is an entry of its own,
// made on first request, so its bytes count towards the bound and leave with it; so is the copy
// of an image (edge/image-copy.ts), by the copy's key.
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { isTextType } from '../modules/files/content.ts';
import type { ServedFile, SitesService } from '../modules/publishing/sites.ts';

/** A deployment's file as the cache hands it out: `key` names its compressed bodies. */
export interface CachedFile extends ServedFile {
  readonly key: string;
}

type Encoding = 'br' | 'gzip';
/** A file (null: the deployment has no such path), a compressed body of one, or an image's copy. */
type Entry = { file: CachedFile | null } | { compressed: Buffer } | { copy: ServedFile };

const DEFAULT_MAX_BYTES = 64 * 1_048_576;
/** Smaller bodies are not worth compressing. */
const COMPRESS_FROM_BYTES = 512;
/** Roughly what an entry costs beside its bytes and key, so that absent paths count too. */
const ENTRY_OVERHEAD_BYTES = 64;

const entryBytes = (entry: Entry, key: string): number =>
  ('compressed' in entry
    ? entry.compressed.length
    : 'copy' in entry
      ? entry.copy.content.length
      : (entry.file?.content.length ?? 0)) +
  key.length +
  ENTRY_OVERHEAD_BYTES;

export class SiteFileCache {
  private readonly entries: LRUCache<string, Entry>;

  constructor(
    private readonly sites: SitesService,
    maxBytes = DEFAULT_MAX_BYTES,
  ) {
    this.entries = new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: entryBytes });
  }

  /** The bytes the cache holds now, as counted against its bound. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  async get(deploymentId: string, path: string): Promise<CachedFile | null> {
    const key = `${deploymentId}\u0000${path}`;
    const hit = this.entries.get(key);
    if (hit && 'file' in hit) return hit.file;
    const served = await this.sites.deploymentFile(deploymentId, path);
    const file = served && { ...served, key };
    // A file larger than the whole bound is not kept (the cache refuses it) but still served.
    this.entries.set(key, { file });
    return file;
  }

  /** An image's copy by its key (images/copies.ts), made by `make` when this cache has none. */
  async copy(
    key: string,
    make: () => Promise<ServedFile | 'busy' | undefined>,
  ): Promise<ServedFile | 'busy' | undefined> {
    const hit = this.entries.get(`copy\u0000${key}`);
    if (hit && 'copy' in hit) return hit.copy;
    const copy = await make();
    if (copy && copy !== 'busy') this.entries.set(`copy\u0000${key}`, { copy });
    return copy;
  }

  /** The body to send for `acceptEncoding`, compressed when worth it. */
  encode(file: CachedFile, acceptEncoding: string | undefined): { body: Buffer; encoding?: Encoding } {
    if (!acceptEncoding || file.content.length < COMPRESS_FROM_BYTES || !isTextType(file.contentType))
      return { body: file.content };
    const encoding: Encoding | undefined = /\bbr\b/.test(acceptEncoding)
      ? 'br'
      : /\bgzip\b/.test(acceptEncoding)
        ? 'gzip'
        : undefined;
    if (!encoding) return { body: file.content };
    const key = `${file.key}\u0000${encoding}`;
    const hit = this.entries.get(key);
    if (hit && 'compressed' in hit) return { body: hit.compressed, encoding };
    const compressed = compress(file.content, encoding);
    this.entries.set(key, { compressed });
    return { body: compressed, encoding };
  }
}

function compress(content: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
    : gzipSync(content, { level: 9 });
}
