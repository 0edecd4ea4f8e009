import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { formatDuration, parseDuration } from '../src/lib/duration.ts';

describe('webhook settings', () => {
  it('default to the schedule and limits of docs/api/webhooks.md', () => {
    const { webhooks } = loadConfig({});
    expect(webhooks.retrySchedule).toEqual([
      0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(webhooks).toMatchObject({
      timeoutMs: 15_000,
      disableAfterMs: 5 * 86_400_000,
      rotationOverlapMs: 86_400_000,
      dispatcher: true,
    });
  });

  it('parse durations in ms, s, m, h and d', () => {
    expect([
      parseDuration('0ms'),
      parseDuration('50ms'),
      parseDuration('5s'),
      parseDuration('5m'),
      parseDuration('2h'),
      parseDuration('1d'),
    ]).toEqual([0, 50, 5_000, 300_000, 7_200_000, 86_400_000]);
    expect(parseDuration('5')).toBeUndefined();
    expect(parseDuration('1.5s')).toBeUndefined();
    expect(formatDuration(5 * 86_400_000 + 3_600_000)).toBe('5d 1h');
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0ms,50ms,100ms' }).webhooks.retrySchedule).toEqual([
      0, 50, 100,
    ]);
  });

  it.each([
    ['WEBHOOK_RETRY_SCHEDULE', '0s,5x'],
    ['WEBHOOK_RETRY_SCHEDULE', '5s,10s'],
    ['WEBHOOK_TIMEOUT', '0s'],
    ['WEBHOOK_TIMEOUT', 'soon'],
    ['WEBHOOK_DISABLE_AFTER', '5 days'],
    ['WEBHOOK_SECRET_ROTATION_OVERLAP', '-1h'],
    ['WEBHOOK_CONCURRENCY', '0'],
    ['WEBHOOK_DISPATCHER', 'yes'],
  ])('refuse %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('site content and AI settings', () => {
  it('default to the documented limits and the builtin model', () => {
    const config = loadConfig({});
    expect(config.files).toEqual({
      maxFileBytes: 5 * 1_048_576,
      maxProjectBytes: 50 * 1_048_576,
      maxProjectFiles: 1000,
      maxImagePixels: 50_000_000,
    });
    expect(config.ai).toEqual({
      apiKey: undefined,
      baseUrl: undefined,
      models: ['gpt-4o-mini'],
      defaultModel: 'builtin',
      timeoutMs: 120_000,
      allowPrivateEndpoints: true,
    });
    expect(config.generation).toEqual({
      worker: true,
      concurrency: 2,
      pollIntervalMs: 1_000,
      retrySchedule: [0, 30_000, 120_000],
      timeoutMs: 300_000,
    });
  });

  it('accepts a configured model as the default only with an API key', () => {
    expect(
      loadConfig({ AI_API_KEY: 'sk-x', AI_MODELS: 'gpt-4o, gpt-4o-mini', AI_DEFAULT_MODEL: 'gpt-4o' }).ai,
    ).toMatchObject({ models: ['gpt-4o', 'gpt-4o-mini'], defaultModel: 'gpt-4o' });
    expect(() => loadConfig({ AI_DEFAULT_MODEL: 'gpt-4o' })).toThrow(
      /AI_DEFAULT_MODEL: 'gpt-4o' is not available; available: builtin/,
    );
  });

  it.each([
    ['FILE_MAX_BYTES', '0'],
    ['PROJECT_MAX_FILES', 'many'],
    ['AI_TIMEOUT', '0s'],
    ['AI_BASE_URL', 'ftp://x'],
    ['GENERATION_RETRY_SCHEDULE', 'later'],
    ['GENERATION_WORKER', 'on'],
  ])('refuse %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('site settings', () => {
  it('take resolver addresses with ports and refuse names, naming DNS_SERVERS', () => {
    expect(
      loadConfig({ DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53,2606:4700:4700::1111' }).sites.dnsServers,
    ).toEqual(['1.1.1.1', '127.0.0.1:5353', '[::1]:53', '2606:4700:4700::1111']);
    expect(() => loadConfig({ DNS_SERVERS: 'dns.google' })).toThrow(
      /DNS_SERVERS: 'dns.google' is not an IP address/,
    );
  });

  it('default the analytics and form settings as docs/configuration.md says', () => {
    expect(loadConfig({}).sites).toMatchObject({
      analyticsCapture: true,
      analyticsFlushMs: 1000,
      analyticsRawRetentionDays: 30,
      formMaxBytes: 65536,
      formRateLimit: 10,
      formRateWindowMs: 600_000,
    });
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ ANALYTICS_RAW_RETENTION_DAYS: '0', ANALYTICS_CAPTURE: 'false' }).sites).toMatchObject(
      { analyticsRawRetentionDays: 0, analyticsCapture: false },
    );
    expect(() => loadConfig({ ANALYTICS_RAW_RETENTION_DAYS: '-1' })).toThrow(/ANALYTICS_RAW_RETENTION_DAYS/);
  });
});

describe('TRUST_PROXY', () => {
  it('takes false, true (private networks), a hop count, or addresses and CIDRs; refuses the rest', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toEqual(['loopback', 'linklocal', 'uniquelocal']);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: '0' })).toThrow(
      /TRUST_PROXY: a hop count must be between 1 and 10/,
    );
    expect(() => loadConfig({ TRUST_PROXY: 'caddy' })).toThrow(/TRUST_PROXY: invalid IP address: caddy/);
  });
});

describe('secrets and organizations’ AI endpoints', () => {
  it('SECRETS_KEY is 32 bytes as base64 or hex, refused at start otherwise', () => {
    const key = Buffer.alloc(32, 5);
    expect(loadConfig({ SECRETS_KEY: key.toString('base64') }).secretsKey).toEqual(key);
    expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).secretsKey).toEqual(key);
    expect(loadConfig({}).secretsKey).toBeUndefined();
    for (const bad of ['secret', Buffer.alloc(16).toString('base64'), 'z'.repeat(64)]) {
      expect(() => loadConfig({ SECRETS_KEY: bad })).toThrow(/SECRETS_KEY: expected 32 random bytes/);
    }
  });

  it('private endpoints are allowed by default only where nobody can sign up unasked', () => {
    expect(loadConfig({}).ai.allowPrivateEndpoints).toBe(true);
    expect(loadConfig({ REGISTRATION: 'open' }).ai.allowPrivateEndpoints).toBe(false);
    expect(
      loadConfig({ REGISTRATION: 'open', AI_ALLOW_PRIVATE_ENDPOINTS: 'true' }).ai.allowPrivateEndpoints,
    ).toBe(true);
    expect(loadConfig({ AI_ALLOW_PRIVATE_ENDPOINTS: 'false' }).ai.allowPrivateEndpoints).toBe(false);
    expect(() => loadConfig({ AI_ALLOW_PRIVATE_ENDPOINTS: 'yes' })).toThrow(/AI_ALLOW_PRIVATE_ENDPOINTS/);
  });
});
