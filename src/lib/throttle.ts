// Growing delays for attempts that may be attacks (wrong passwords, mails and accounts asked for
// by anyone): the first `free` attempts of a key in the window pass at once, each later one must
// wait 1 s, 2 s, 4 s, ... (at most `maxDelaySeconds`) after the previous one. Nobody is locked
// out for long, and guessing stays slow. Counted by rate-limiter-flexible, in memory or in Redis
// (every instance shares the counts); the slot after each delay is taken atomically, so a burst of
// parallel attempts gets one through, not all.
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import { redisReady } from './rate-limiter.ts';

export interface ThrottleOptions {
  /** How long attempts are remembered (the window starts at a key's first attempt). */
  windowSeconds: number;
  maxDelaySeconds: number;
  redisUrl?: string | undefined;
  keyPrefix: string;
}

export class Throttle {
  private readonly redis: Redis | undefined;
  private readonly counts: RateLimiterAbstract;
  private readonly slots: RateLimiterAbstract;

  constructor(private readonly opts: ThrottleOptions) {
    const counting = { points: 1_000_000, duration: opts.windowSeconds, keyPrefix: `${opts.keyPrefix}:n` };
    const slot = { points: 1, duration: 1, keyPrefix: `${opts.keyPrefix}:s` };
    if (opts.redisUrl) {
      this.redis = new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      const storeClient = this.redis;
      this.counts = new RateLimiterRedis({
        ...counting,
        storeClient,
        insuranceLimiter: new RateLimiterMemory(counting),
      });
      this.slots = new RateLimiterRedis({
        ...slot,
        storeClient,
        insuranceLimiter: new RateLimiterMemory(slot),
      });
    } else {
      this.counts = new RateLimiterMemory(counting);
      this.slots = new RateLimiterMemory(slot);
    }
  }

  /**
   * Counts an attempt of `key`; answers 0 when it may go ahead, or the seconds to wait (the
   * refused attempt is not counted).
   */
  async attempt(key: string, free: number): Promise<number> {
    const count = (await this.counts.consume(key)).consumedPoints;
    if (count <= free) return 0;
    const delay = Math.min(2 ** Math.min(count - free - 1, 30), this.opts.maxDelaySeconds);
    try {
      // The slot is held for `delay` seconds by this attempt: the next one waits that long.
      await this.slots.consume(key, 1, { customDuration: delay });
      return 0;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      await this.counts.reward(key);
      return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    }
  }

  /** Takes back one attempt of `key` (it turned out to be a success that should not count). */
  async forgive(key: string): Promise<void> {
    await this.counts.reward(key);
  }

  /** Forgets every attempt of `key` (a successful sign-in resets its account). */
  async reset(key: string): Promise<void> {
    await Promise.all([this.counts.delete(key), this.slots.delete(key)]);
  }

  /** Resolves once the Redis connection is ready (immediately in memory). */
  ready(): Promise<void> {
    return redisReady(this.redis);
  }

  async close(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
