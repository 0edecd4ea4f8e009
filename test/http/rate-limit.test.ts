import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi({ RATE_LIMIT_QUOTA: '3', RATE_LIMIT_WINDOW_SECONDS: '30' });

describe('rate limit (memory store)', () => {
  it('counts per key, sends all five headers, then 429 with Retry-After', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.get('/api/v1/clients');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"v1";q=3;w=30');
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(2 - i));
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(30);
      seen.push(String(res.headers.ratelimit));
    }
    expect(seen[2]).toMatch(/^"v1";r=0;t=\d+$/);
    const limited = await api.get('/api/v1/clients');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toContain('Rate limit exceeded');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    // A limited write changes nothing.
    expect((await api.post('/api/v1/clients', { email: 'late@example.com' })).status).toBe(429);
    // Another key of the same organization has its own quota.
    const other = await api.get('/api/v1/clients', { key: api.readKey });
    expect(other.status).toBe(200);
    expect(other.body.clients).toEqual([]);
  });

  it('limits requests without a valid credential per client IP, and then answers 429 rather than 401', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.get('/api/v1/clients', { key: 'wk_guess' })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // The OpenAPI document is public but counted per IP too.
    expect((await api.get('/api/v1/docs', { key: null })).status).toBe(429);
    // A valid key is not affected by the IP's quota.
    expect((await api.get('/api/v1/clients')).status).toBe(200);
  });
});
