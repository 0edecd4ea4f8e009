// Growing delays: free attempts, then one attempt per delay, doubling; a burst of parallel
// attempts gets one through; reset and forgive; the same in memory and on Redis (shared by two
// instances).
import { afterAll, describe, expect, it } from 'vitest';
import { Throttle } from '../../src/lib/throttle.ts';

const REDIS_URL = process.env.REDIS_URL;
const stores: [string, string | undefined][] = [
  ['memory', undefined],
  ...(REDIS_URL ? [['Redis', REDIS_URL] as [string, string]] : []),
];
const made: Throttle[] = [];
const throttle = async (redisUrl: string | undefined, keyPrefix: string) => {
  const t = new Throttle({ windowSeconds: 60, maxDelaySeconds: 4, redisUrl, keyPrefix });
  made.push(t);
  await t.ready();
  return t;
};
afterAll(async () => {
  await Promise.all(made.map((t) => t.close()));
});

describe.each(stores)('throttle (%s)', (_name, redisUrl) => {
  const prefix = `sw:test:throttle:${process.pid}:${Date.now()}:${_name}`;

  it('lets the free attempts through, then one per growing delay; parallel bursts get one through', async () => {
    const t = await throttle(redisUrl, prefix);
    for (let i = 0; i < 3; i++) expect(await t.attempt('a', 3)).toBe(0);
    expect(await t.attempt('a', 3)).toBe(0); // the 4th takes the slot for 1 s
    expect(await t.attempt('a', 3)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect(await t.attempt('a', 3)).toBe(0); // the 5th: slot for 2 s
    expect(await t.attempt('a', 3)).toBeGreaterThanOrEqual(1);
    const burst = await Promise.all(Array.from({ length: 20 }, () => t.attempt('b', 0)));
    expect(burst.filter((wait) => wait === 0)).toHaveLength(1);
  });

  it('forgets a key on reset and takes back one attempt on forgive', async () => {
    const t = await throttle(redisUrl, `${prefix}:2`);
    for (let i = 0; i < 2; i++) await t.attempt('c', 2);
    await t.forgive('c');
    expect(await t.attempt('c', 2)).toBe(0);
    expect(await t.attempt('c', 2)).toBe(0);
    expect(await t.attempt('c', 2)).toBe(1);
    await t.reset('c');
    expect(await t.attempt('c', 2)).toBe(0);
  });
});

describe.runIf(REDIS_URL)('throttle shared on Redis', () => {
  it('counts the attempts of two instances together', async () => {
    const prefix = `sw:test:throttle:${process.pid}:${Date.now()}:shared`;
    const [one, two] = [await throttle(REDIS_URL, prefix), await throttle(REDIS_URL, prefix)];
    expect(await one!.attempt('d', 1)).toBe(0);
    expect(await two!.attempt('d', 1)).toBe(0);
    expect(await one!.attempt('d', 1)).toBe(1);
  });
});
