// The deployment file cache keeps its byte bound: compressed bodies count towards it and leave with
// their entries, even when the file they were made from had already been evicted.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SiteFileCache } from '../../src/edge/site-file-cache.ts';
import type { ServedFile, SitesService } from '../../src/modules/publishing/sites.ts';

const FILE_BYTES = 3_000;
const MAX_BYTES = 20_000;

/** A deployment whose every path is an HTML file of FILE_BYTES that compresses poorly (random text). */
function fakeSites() {
  const reads: string[] = [];
  const sites = {
    deploymentFile: async (_deploymentId: string, path: string): Promise<ServedFile> => {
      reads.push(path);
      return {
        content: Buffer.from(randomBytes(FILE_BYTES).toString('base64').slice(0, FILE_BYTES)),
        contentType: 'text/html; charset=utf-8',
        etag: `"${path}"`,
      };
    },
  } as unknown as SitesService;
  return { sites, reads };
}

describe('the deployment file cache', () => {
  it('keeps caching after files it had already evicted were compressed', async () => {
    const { sites, reads } = fakeSites();
    const cache = new SiteFileCache(sites, MAX_BYTES);
    const served = [];
    for (let i = 0; i < 12; i++) served.push((await cache.get('d1', `page${i}.html`))!);
    // The first pages are long evicted; a request that was being served as they left compresses them.
    for (const file of served.slice(0, 6)) {
      cache.encode(file, 'gzip');
      cache.encode(file, 'br');
    }
    expect(cache.bytes).toBeLessThanOrEqual(MAX_BYTES);

    // A new page is kept: asked again, it is answered without a read.
    await cache.get('d1', 'fresh.html');
    reads.length = 0;
    await cache.get('d1', 'fresh.html');
    expect(reads).toEqual([]);
    expect(cache.bytes).toBeLessThanOrEqual(MAX_BYTES);
  });

  it('counts compressed bodies against its bound and lets them go with the rest', async () => {
    const { sites } = fakeSites();
    const cache = new SiteFileCache(sites, MAX_BYTES);
    const file = (await cache.get('d1', 'index.html'))!;
    const before = cache.bytes;
    const gzip = cache.encode(file, 'gzip');
    expect(gzip.encoding).toBe('gzip');
    expect(cache.bytes).toBeGreaterThanOrEqual(before + gzip.body.length);
    // The same compressed body is handed out again, not made again.
    expect(cache.encode(file, 'gzip, deflate').body).toBe(gzip.body);
    for (let i = 0; i < 50; i++) {
      const other = (await cache.get('d1', `other${i}.html`))!;
      cache.encode(other, 'br');
      expect(cache.bytes).toBeLessThanOrEqual(MAX_BYTES);
    }
  });

  it('answers a file larger than its whole bound without keeping it', async () => {
    const { sites, reads } = fakeSites();
    const cache = new SiteFileCache(sites, FILE_BYTES / 2);
    expect((await cache.get('d1', 'big.html'))!.content.length).toBe(FILE_BYTES);
    expect((await cache.get('d1', 'big.html'))!.content.length).toBe(FILE_BYTES);
    expect(reads).toEqual(['big.html', 'big.html']);
    expect(cache.bytes).toBe(0);
  });
});
