// Fixed-window rate limit per credential (or per client IP without a valid one), counted by
// rate-limiter-flexible: in memory, or in Redis when REDIS_URL is set so every instance shares
// one quota.
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { Redis } from 'ioredis';

export interface RateLimitOptions {
  quota: number;
  windowSeconds: number;
  redisUrl?: string | undefined;
  /** Redis key prefix; tests give each run its own. */
  keyPrefix?: string;
}

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  resetSeconds: number;
}

export class RateLimiter {
  private readonly limiter: RateLimiterAbstract;
  private readonly redis: Redis | undefined;
  readonly quota: number;
  readonly windowSeconds: number;
  private readonly policy: string;
  private readonly quotaHeader: string;

  constructor(opts: RateLimitOptions) {
    this.quota = opts.quota;
    this.windowSeconds = opts.windowSeconds;
    this.policy = `"v1";q=${opts.quota};w=${opts.windowSeconds}`;
    this.quotaHeader = String(opts.quota);
    const base = { points: opts.quota, duration: opts.windowSeconds, keyPrefix: opts.keyPrefix ?? 'sw:rl' };
    if (opts.redisUrl) {
      this.redis = new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      // A Redis outage must not take the API down: count in memory until it is back.
      this.limiter = new RateLimiterRedis({
        ...base,
        storeClient: this.redis,
        insuranceLimiter: new RateLimiterMemory(base),
      });
    } else {
      this.limiter = new RateLimiterMemory(base);
    }
  }

  consume(key: string): Promise<RateDecision> {
    // One promise hop, not an async function's two: this runs on every API request.
    return this.limiter.consume(key).then(
      (res) => this.decision(res, true),
      (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) return this.decision(rejection, false);
        throw rejection;
      },
    );
  }

  /** The five rate-limit headers every /api/v1 response carries (docs/api/decisions.md, Rate limit). */
  headers(rate: RateDecision): Record<string, string> {
    return {
      'ratelimit-policy': this.policy,
      ratelimit: `"v1";r=${rate.remaining};t=${rate.resetSeconds}`,
      'x-ratelimit-limit': this.quotaHeader,
      'x-ratelimit-remaining': String(rate.remaining),
      'x-ratelimit-reset': String(rate.resetSeconds),
    };
  }

  private decision(res: RateLimiterRes, allowed: boolean): RateDecision {
    return {
      allowed,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    };
  }

  /** Resolves once the Redis connection is ready (immediately for the memory store). */
  ready(): Promise<void> {
    return redisReady(this.redis);
  }

  /** Whether Redis answers a PING now (readiness); `not used` without REDIS_URL. */
  async ping(): Promise<'ok' | 'not used'> {
    if (!this.redis) return 'not used';
    await this.redis.ping();
    return 'ok';
  }

  async close(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}

/** Resolves once a Redis connection is ready; until then limits count in memory (insurance). */
export async function redisReady(redis: Redis | undefined): Promise<void> {
  if (!redis || redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    redis.once('ready', resolve);
    redis.once('error', reject);
  });
}
