// How copies are made: one encoding per copy however many ask at once, kept so that the next ask
// decodes nothing; at most MAX_WAITING visitors wait, one more is told to come back; a broken image
// is tried once; a publish's warming never makes a visitor wait for it to start.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { photo } from '../../helpers/images.ts';
import { ImageCopies, type ImageSource } from '../../../src/modules/images/copies.ts';
import { storeBlobs } from '../../../src/modules/files/blobs-repo.ts';
import { sha256 } from '../../../src/modules/files/content.ts';
import { COPY_WIDTHS } from '../../../src/modules/images/formats.ts';

const api = useTestApi();

async function source(bytes: Buffer, path = 'images/p.jpg'): Promise<ImageSource> {
  await api.ctx.database.transaction((trx) => storeBlobs(trx, new Map([[path, bytes]])));
  return { path, content: bytes, sha256: sha256(bytes) };
}

describe('image copies', () => {
  it('encodes a copy once however many ask for it at once, and keeps it', async () => {
    const copies = new ImageCopies(api.ctx.database, 50_000_000);
    const image = await source(await photo(3000, 2000));
    const plan = (await copies.plan(image, 1920, 'image/avif'))!;
    const answers = await Promise.all(Array.from({ length: 6 }, () => copies.copy(image, plan)));
    expect(copies.encoded).toBe(1);
    expect(new Set(answers.map((a) => (a as { etag: string }).etag)).size).toBe(1);
    const later = new ImageCopies(api.ctx.database, 50_000_000); // another instance, or a restart
    expect(await later.copy(image, plan)).toMatchObject({ contentType: 'image/avif' });
    expect(later.encoded).toBe(0);
  });

  it('lets at most 16 visitors wait for copies not made yet; one more is busy', async () => {
    const copies = new ImageCopies(api.ctx.database, 50_000_000);
    // Both turns held by two long encodings (12 megapixels to 2560 and 1920 AVIF)...
    const big = await source(await photo(4000, 3000), 'images/big.jpg');
    const holding = [2560, 1920].map(async (width) =>
      copies.copy(big, (await copies.plan(big, width, 'image/avif'))!),
    );
    // ...sixteen more wait for a turn, and the next one is told to come back.
    const small = await source(await photo(2600, 300), 'images/wide.jpg');
    const plans = [];
    for (const accept of ['image/avif', 'image/webp', ''])
      for (const width of COPY_WIDTHS) plans.push((await copies.plan(small, width, accept))!);
    const waiting = plans.slice(0, 16).map((plan) => copies.copy(small, plan));
    await expect.poll(() => copies.waiting).toBe(16);
    expect(await copies.copy(small, plans[16]!)).toBe('busy');
    const answers = await Promise.all([...holding, ...waiting]);
    expect(answers.every((a) => a !== 'busy' && a !== undefined)).toBe(true);
    expect(copies.encoded).toBe(18);
  }, 60_000);

  it('tries a broken image once, then serves it as it is', async () => {
    const copies = new ImageCopies(api.ctx.database, 50_000_000);
    const whole = await photo(800, 600);
    const image = await source(whole.subarray(0, Math.floor(whole.length / 2)), 'images/cut.jpg');
    const plan = await copies.plan(image, 320, 'image/webp');
    expect(plan).toBeDefined();
    expect(await copies.copy(image, plan!)).toBeUndefined();
    expect(await copies.plan(image, 320, 'image/webp')).toBeUndefined();
  });

  it('warms in the background: a visitor’s copy does not wait for the warming to finish', async () => {
    const copies = new ImageCopies(api.ctx.database, 50_000_000);
    const big = await source(await photo(2600, 1700), 'images/big.jpg');
    const visitor = await source(await photo(900, 600), 'images/visitor.jpg');
    const wanted = COPY_WIDTHS.map((width) => ({ path: big.path, width }));
    let warmed = false;
    const warming = copies.warm(wanted, async () => big).then((n) => ((warmed = true), n));
    await new Promise((r) => setTimeout(r, 50));
    const plan = (await copies.plan(visitor, 320, 'image/avif'))!;
    expect(await copies.copy(visitor, plan)).toMatchObject({ contentType: 'image/avif' });
    expect(warmed).toBe(false);
    expect(await warming).toBe(COPY_WIDTHS.length);
    // Warming again makes nothing: every copy is kept.
    expect(await copies.warm(wanted, async () => big)).toBe(0);
  }, 60_000);
});
