// Every setting Sitewright reads from the environment, validated once at boot.
// README.md lists the same variables with their defaults; keep the two in step.
import { Type, type Static } from '@sinclair/typebox';
import { isIP } from 'node:net';
import { Value } from '@sinclair/typebox/value';
import { parseCidrList } from './lib/cidr.ts';
import { parseTrustProxy, type TrustProxy } from './lib/client-address.ts';
import { parseDuration, parseDurationList } from './lib/duration.ts';
import { parseSecretsKey } from './lib/secrets.ts';

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);

const EnvSchema = Type.Object({
  PORT: Type.String({ default: '3000', pattern: '^[0-9]{1,5}$' }),
  HOST: Type.String({ default: '0.0.0.0' }),
  DATA_DIR: Type.String({ default: './data' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  RATE_LIMIT_QUOTA: Type.String({ default: '100', pattern: '^[1-9][0-9]*$' }),
  RATE_LIMIT_WINDOW_SECONDS: Type.String({ default: '60', pattern: '^[1-9][0-9]*$' }),
  SQLITE_SYNCHRONOUS: Type.Union([Type.Literal('NORMAL'), Type.Literal('FULL')], { default: 'FULL' }),
  WEBHOOKS_ALLOW_PRIVATE: Bool,
  API_DEPRECATION: Type.Optional(Type.String()),
  API_SUNSET: Type.Optional(Type.String()),
  SHUTDOWN_GRACE_MS: Type.String({ default: '10000', pattern: '^[0-9]+$' }),
  WEBHOOK_DISPATCHER: Bool,
  WEBHOOK_RETRY_SCHEDULE: Type.String({ default: '0s,5s,5m,30m,2h,5h,10h,10h' }),
  WEBHOOK_TIMEOUT: Type.String({ default: '15s' }),
  WEBHOOK_DISABLE_AFTER: Type.String({ default: '5d' }),
  WEBHOOK_SECRET_ROTATION_OVERLAP: Type.String({ default: '24h' }),
  WEBHOOK_POLL_INTERVAL: Type.String({ default: '100ms' }),
  WEBHOOK_CONCURRENCY: Type.String({ default: '64', pattern: '^[1-9][0-9]{0,3}$' }),
  WEBHOOK_ENDPOINT_CONCURRENCY: Type.String({ default: '8', pattern: '^[1-9][0-9]{0,3}$' }),
  SITES_DOMAIN: Type.Optional(Type.String({ pattern: '^[a-z0-9.-]+(:[0-9]{1,5})?$' })),
  SITES_SCHEME: Type.Optional(Type.Union([Type.Literal('http'), Type.Literal('https')])),
  SITES_IPV4: Type.Optional(Type.String({ pattern: '^([0-9]{1,3}[.]){3}[0-9]{1,3}$' })),
  PREVIEW_TTL: Type.String({ default: '7d' }),
  PREVIEW_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  DNS_SERVERS: Type.Optional(Type.String()),
  DOMAIN_CHECK_INTERVAL: Type.String({ default: '5m' }),
  TRUST_PROXY: Type.String({ default: 'false' }),
  TLS_ASK_ALLOW: Type.String({ default: '127.0.0.0/8,::1' }),
  MCP_ALLOWED_ORIGINS: Type.String({ default: '' }),
  FORM_MAX_BYTES: Type.String({ default: '65536', pattern: '^[1-9][0-9]*$' }),
  FORM_RATE_LIMIT: Type.String({ default: '10', pattern: '^[1-9][0-9]*$' }),
  FORM_RATE_LIMIT_WINDOW: Type.String({ default: '10m' }),
  ANALYTICS_FLUSH_INTERVAL: Type.String({ default: '1s' }),
  ANALYTICS_CAPTURE: Bool,
  ANALYTICS_RAW_RETENTION_DAYS: Type.String({ default: '30', pattern: '^[0-9]{1,4}$' }),
  FILE_MAX_BYTES: Type.String({ default: '5242880', pattern: '^[1-9][0-9]*$' }),
  PROJECT_MAX_BYTES: Type.String({ default: '52428800', pattern: '^[1-9][0-9]*$' }),
  PROJECT_MAX_FILES: Type.String({ default: '1000', pattern: '^[1-9][0-9]*$' }),
  AI_API_KEY: Type.Optional(Type.String()),
  AI_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  AI_MODELS: Type.String({ default: 'gpt-4o-mini' }),
  AI_DEFAULT_MODEL: Type.String({ default: 'builtin' }),
  AI_TIMEOUT: Type.String({ default: '120s' }),
  AI_ALLOW_PRIVATE_ENDPOINTS: Type.Optional(Bool),
  SECRETS_KEY: Type.Optional(Type.String()),
  GENERATION_WORKER: Bool,
  GENERATION_CONCURRENCY: Type.String({ default: '2', pattern: '^[1-9][0-9]{0,2}$' }),
  GENERATION_POLL_INTERVAL: Type.String({ default: '1s' }),
  GENERATION_RETRY_SCHEDULE: Type.String({ default: '0s,30s,2m' }),
  GENERATION_TIMEOUT: Type.String({ default: '5m' }),
  REGISTRATION: Type.Union([Type.Literal('invite'), Type.Literal('open')], { default: 'invite' }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.Optional(Type.String()),
  SESSION_TTL: Type.String({ default: '30d' }),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  publicUrl: string;
  /** Browser origins besides PUBLIC_URL's that may call /api/mcp (DNS-rebinding protection). */
  mcpAllowedOrigins: string[];
  logLevel: string;
  /** The front proxies whose X-Forwarded-For is believed (TRUST_PROXY), for every way in. */
  trustProxy: TrustProxy;
  rateLimit: { quota: number; windowSeconds: number };
  sqliteSynchronous: 'NORMAL' | 'FULL';
  /** SECRETS_KEY: seals the secrets organizations hand over; without it the embedded default keeps a key file in DATA_DIR. */
  secretsKey: Buffer | undefined;
  webhooksAllowPrivate: boolean;
  /** Deprecation and Sunset header values for /api/v1, sent only when set. */
  deprecation: { deprecation: string | undefined; sunset: string | undefined };
  shutdownGraceMs: number;
  webhooks: WebhookSettings;
  generation: GenerationSettings;
  ai: AiSettings;
  sites: SitesSettings;
  /** Limits on project files, in bytes and files. */
  files: { maxFileBytes: number; maxProjectBytes: number; maxProjectFiles: number };
  accounts: AccountSettings;
}

/** People: sign-up policy, sessions and mail. */
export interface AccountSettings {
  /** 'invite': accounts only through an invitation (after the first); 'open': anyone may sign up. */
  registration: 'invite' | 'open';
  /** smtp(s)://user:pass@host:port; unset: messages are written to the log. */
  smtpUrl: string | undefined;
  mailFrom: string;
  sessionTtlMs: number;
  /** The session cookie is Secure and __Host- prefixed when PUBLIC_URL is https. */
  secureCookies: boolean;
}

/** Published sites, previews and custom domains. */
export interface SitesSettings {
  /** Sites answer on `{subdomain}.{domain}`; may carry a port (`localhost:3000`). */
  domain: string;
  /** Scheme of published URLs on the sites domain. */
  scheme: 'http' | 'https';
  /** The address apex custom domains point an A record at; unset: apex domains need ALIAS/CNAME flattening. */
  ipv4: string | undefined;
  previewTtlMs: number;
  /** Signs preview links; unset: a secret generated once and kept in the database. */
  previewSecret: string | undefined;
  /** Resolvers for custom-domain checks (IP addresses, optionally with a port); empty: the system's. */
  dnsServers: string[];
  domainCheckIntervalMs: number;
  /** The CIDRs whose callers /internal/tls/ask answers (everyone else: 404); validated. */
  tlsAskAllow: string[];
  formMaxBytes: number;
  /** Form posts allowed per client IP and site in formRateWindowMs. */
  formRateLimit: number;
  formRateWindowMs: number;
  analyticsFlushMs: number;
  /** Whether page views of published sites are recorded at all. */
  analyticsCapture: boolean;
  /** Days raw page views are kept (0: not stored); the daily rollups behind /analytics stay. */
  analyticsRawRetentionDays: number;
}

/** AI providers: `builtin` always; an OpenAI-compatible API when apiKey is set. */
export interface AiSettings {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  models: string[];
  defaultModel: string;
  timeoutMs: number;
  /**
   * Whether an organization's own AI endpoint (Settings → AI model) may be on loopback or a
   * private network (a local Ollama). Default: yes when only invited people get accounts, no when
   * anyone may sign up (REGISTRATION=open): a stranger's organization must not reach the server's network.
   */
  allowPrivateEndpoints: boolean;
}

/** AI generation jobs; durations in milliseconds. */
export interface GenerationSettings {
  /** Run generation jobs inside `sitewright start` (false: run `sitewright worker` beside it). */
  worker: boolean;
  /** Jobs run at once by one process. */
  concurrency: number;
  pollIntervalMs: number;
  /** Delay before each try; a job is tried once per entry (the first is normally 0s). */
  retrySchedule: number[];
  /** A job running longer than this is aborted; also the lease another worker waits out after a crash. */
  timeoutMs: number;
}

/** Webhook delivery settings; every duration is in milliseconds. */
export interface WebhookSettings {
  /** Run the dispatcher inside `sitewright start` (false: API only, run `sitewright worker` beside it). */
  dispatcher: boolean;
  /** Delay before each attempt, the first measured from the event, each next from the previous attempt. */
  retrySchedule: number[];
  timeoutMs: number;
  /** An endpoint failing without a single success for this long is switched off. */
  disableAfterMs: number;
  /** How long after a rotation deliveries still carry the previous secret's signature too. */
  rotationOverlapMs: number;
  pollIntervalMs: number;
  /** Attempts in flight at once in one dispatcher. */
  concurrency: number;
  /** Attempts in flight at once to one endpoint, across all dispatchers: a dead endpoint can hold no more. */
  endpointConcurrency: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const known = Object.keys(EnvSchema.properties);
  // Empty strings count as unset, so `FOO= npm start` falls back to the default.
  const picked: Record<string, string> = {};
  for (const name of known) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  picked.WEBHOOKS_ALLOW_PRIVATE ??= 'false';
  picked.WEBHOOK_DISPATCHER ??= 'true';
  picked.GENERATION_WORKER ??= 'true';
  picked.ANALYTICS_CAPTURE ??= 'true';
  const withDefaults = Value.Default(EnvSchema, picked);
  const problems = [...Value.Errors(EnvSchema, withDefaults)];
  if (problems.length > 0) {
    const lines = problems.map((p) => `${p.path.slice(1) || 'env'}: ${p.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = withDefaults as Static<typeof EnvSchema>;
  const port = Number(e.PORT);
  return {
    port,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS.split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
    trustProxy: trustProxy(e.TRUST_PROXY),
    rateLimit: { quota: Number(e.RATE_LIMIT_QUOTA), windowSeconds: Number(e.RATE_LIMIT_WINDOW_SECONDS) },
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    secretsKey: secretsKey(e.SECRETS_KEY),
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === 'true',
    deprecation: { deprecation: e.API_DEPRECATION, sunset: e.API_SUNSET },
    shutdownGraceMs: Number(e.SHUTDOWN_GRACE_MS),
    webhooks: webhookSettings(e),
    generation: generationSettings(e),
    ai: aiSettings(e),
    sites: {
      domain: (e.SITES_DOMAIN ?? `localhost:${port}`).toLowerCase(),
      scheme: e.SITES_SCHEME ?? (e.PUBLIC_URL?.startsWith('https:') ? 'https' : 'http'),
      ipv4: e.SITES_IPV4,
      previewTtlMs: positiveDuration('PREVIEW_TTL', e.PREVIEW_TTL),
      previewSecret: e.PREVIEW_SECRET,
      dnsServers: dnsServers(e.DNS_SERVERS),
      domainCheckIntervalMs: positiveDuration('DOMAIN_CHECK_INTERVAL', e.DOMAIN_CHECK_INTERVAL),
      tlsAskAllow: cidrs('TLS_ASK_ALLOW', e.TLS_ASK_ALLOW),
      formMaxBytes: Number(e.FORM_MAX_BYTES),
      formRateLimit: Number(e.FORM_RATE_LIMIT),
      formRateWindowMs: positiveDuration('FORM_RATE_LIMIT_WINDOW', e.FORM_RATE_LIMIT_WINDOW),
      analyticsFlushMs: positiveDuration('ANALYTICS_FLUSH_INTERVAL', e.ANALYTICS_FLUSH_INTERVAL),
      analyticsCapture: e.ANALYTICS_CAPTURE === 'true',
      analyticsRawRetentionDays: Number(e.ANALYTICS_RAW_RETENTION_DAYS),
    },
    files: {
      maxFileBytes: Number(e.FILE_MAX_BYTES),
      maxProjectBytes: Number(e.PROJECT_MAX_BYTES),
      maxProjectFiles: Number(e.PROJECT_MAX_FILES),
    },
    accounts: {
      registration: e.REGISTRATION,
      smtpUrl: e.SMTP_URL,
      mailFrom:
        e.MAIL_FROM ?? `Sitewright <no-reply@${new URL(e.PUBLIC_URL ?? 'http://localhost').hostname}>`,
      sessionTtlMs: positiveDuration('SESSION_TTL', e.SESSION_TTL),
      secureCookies: (e.PUBLIC_URL ?? '').startsWith('https:'),
    },
  };
}

/** SECRETS_KEY: 32 bytes as base64 or hex, refused at boot otherwise (a typo must not seal with a weak key). */
function secretsKey(value: string | undefined): Buffer | undefined {
  if (value === undefined) return undefined;
  const key = parseSecretsKey(value);
  if (!key)
    throw new ConfigError(
      'Invalid configuration:\n  SECRETS_KEY: expected 32 random bytes as base64 or 64 hex digits (for example the output of `openssl rand -base64 32`)',
    );
  return key;
}

function webhookSettings(e: Static<typeof EnvSchema>): WebhookSettings {
  const retrySchedule = parseDurationList(e.WEBHOOK_RETRY_SCHEDULE);
  if (!retrySchedule) {
    throw new ConfigError(
      `Invalid configuration:\n  WEBHOOK_RETRY_SCHEDULE: expected comma-separated durations such as 0s,5s,5m,2h,1d`,
    );
  }
  // The outbox makes every new delivery due at once; a delayed first attempt would need the
  // schedule inside every transaction that records an event.
  if (retrySchedule[0] !== 0)
    throw new ConfigError(
      'Invalid configuration:\n  WEBHOOK_RETRY_SCHEDULE: the first attempt must be immediate (0s)',
    );
  return {
    dispatcher: e.WEBHOOK_DISPATCHER === 'true',
    retrySchedule,
    timeoutMs: positiveDuration('WEBHOOK_TIMEOUT', e.WEBHOOK_TIMEOUT),
    disableAfterMs: positiveDuration('WEBHOOK_DISABLE_AFTER', e.WEBHOOK_DISABLE_AFTER),
    rotationOverlapMs: duration('WEBHOOK_SECRET_ROTATION_OVERLAP', e.WEBHOOK_SECRET_ROTATION_OVERLAP),
    pollIntervalMs: positiveDuration('WEBHOOK_POLL_INTERVAL', e.WEBHOOK_POLL_INTERVAL),
    concurrency: Number(e.WEBHOOK_CONCURRENCY),
    endpointConcurrency: Number(e.WEBHOOK_ENDPOINT_CONCURRENCY),
  };
}

function aiSettings(e: Static<typeof EnvSchema>): AiSettings {
  const models = e.AI_MODELS.split(',')
    .map((m) => m.trim())
    .filter((m) => m && m !== 'builtin');
  const available = ['builtin', ...(e.AI_API_KEY ? models : [])];
  if (!available.includes(e.AI_DEFAULT_MODEL)) {
    throw new ConfigError(
      `Invalid configuration:\n  AI_DEFAULT_MODEL: '${e.AI_DEFAULT_MODEL}' is not available; available: ${available.join(', ')} (models of AI_MODELS need AI_API_KEY)`,
    );
  }
  return {
    apiKey: e.AI_API_KEY,
    baseUrl: e.AI_BASE_URL,
    models,
    defaultModel: e.AI_DEFAULT_MODEL,
    timeoutMs: positiveDuration('AI_TIMEOUT', e.AI_TIMEOUT),
    allowPrivateEndpoints:
      e.AI_ALLOW_PRIVATE_ENDPOINTS === undefined
        ? e.REGISTRATION !== 'open'
        : e.AI_ALLOW_PRIVATE_ENDPOINTS === 'true',
  };
}

function generationSettings(e: Static<typeof EnvSchema>): GenerationSettings {
  const retrySchedule = parseDurationList(e.GENERATION_RETRY_SCHEDULE);
  if (!retrySchedule || retrySchedule.length === 0) {
    throw new ConfigError(
      `Invalid configuration:\n  GENERATION_RETRY_SCHEDULE: expected comma-separated durations such as 0s,30s,2m`,
    );
  }
  return {
    worker: e.GENERATION_WORKER === 'true',
    concurrency: Number(e.GENERATION_CONCURRENCY),
    pollIntervalMs: positiveDuration('GENERATION_POLL_INTERVAL', e.GENERATION_POLL_INTERVAL),
    retrySchedule,
    timeoutMs: positiveDuration('GENERATION_TIMEOUT', e.GENERATION_TIMEOUT),
  };
}

function duration(name: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined)
    throw new ConfigError(
      `Invalid configuration:\n  ${name}: expected a duration such as 50ms, 15s, 5m, 2h or 1d`,
    );
  return ms;
}

function positiveDuration(name: string, text: string): number {
  const ms = duration(name, text);
  if (ms === 0) throw new ConfigError(`Invalid configuration:\n  ${name}: must be longer than 0`);
  return ms;
}

function trustProxy(text: string): TrustProxy {
  try {
    return parseTrustProxy(text);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  TRUST_PROXY: ${(error as Error).message}`);
  }
}

function cidrs(name: string, text: string): string[] {
  try {
    parseCidrList(text);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${name}: ${(error as Error).message}`);
  }
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Resolver addresses: IPs, optionally with a port (`1.1.1.1`, `127.0.0.1:5353`, `[::1]:53`); Node's resolver takes no names. */
function dnsServers(text: string | undefined): string[] {
  const servers = (text ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  for (const server of servers) {
    const host = server.replace(/^\[(.*)\](:\d{1,5})?$/, '$1').replace(/^([^:]+):\d{1,5}$/, '$1');
    if (!isIP(host))
      throw new ConfigError(
        `Invalid configuration:\n  DNS_SERVERS: '${server}' is not an IP address (optionally with :port)`,
      );
  }
  return servers;
}
