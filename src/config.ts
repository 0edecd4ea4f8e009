// Every setting Sitewright reads from the environment, validated once at boot.
// docs/configuration.md is generated from this schema (each variable's `description`) by
// `npm run docs:config`; a test fails when the two differ.
import { Type, type Static } from '@sinclair/typebox';
import { isIP } from 'node:net';
import { Value } from '@sinclair/typebox/value';
import { parseCidrList } from './lib/cidr.ts';
import type { MetricsAccess } from './lib/metrics-access.ts';
import { parseTrustProxy, type TrustProxy } from './lib/client-address.ts';
import { parseDuration, parseDurationList } from './lib/duration.ts';
import { parseSecretsKey } from './lib/secrets.ts';
import type {
  AccountSettings,
  AiSettings,
  CoreSettings,
  GenerationSettings,
  SitesSettings,
  WebhookSettings,
} from './modules/settings.ts';

export type { AccountSettings, AiSettings, GenerationSettings, SitesSettings, WebhookSettings };

const Bool = (description: string) =>
  Type.Union([Type.Literal('true'), Type.Literal('false')], { description });

export const EnvSchema = Type.Object({
  PORT: Type.String({ default: '3000', pattern: '^[0-9]{1,5}$', description: 'HTTP port.' }),
  HOST: Type.String({ default: '0.0.0.0', description: 'Interface to listen on.' }),
  DATA_DIR: Type.String({
    default: './data',
    description:
      'Directory of the SQLite database (`sitewright.db`), and of the key file `secrets.key` on the embedded default (see `SECRETS_KEY`).',
  }),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description: '`postgres://...`: use PostgreSQL instead of SQLite. Unset: SQLite in `DATA_DIR`.',
    }),
  ),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://',
      description:
        '`redis://...`: count rate limits in Redis, shared by every instance. Unset: counted in the memory of each process.',
    }),
  ),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'The service origin as clients see it (used in `builder_url`). Default computed in code: `http://localhost:$PORT`.',
    }),
  ),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'How much the server logs (JSON lines, pino).' },
  ),
  RATE_LIMIT_QUOTA: Type.String({
    default: '100',
    pattern: '^[1-9][0-9]*$',
    description: 'Requests per window per credential.',
  }),
  RATE_LIMIT_WINDOW_SECONDS: Type.String({
    default: '60',
    pattern: '^[1-9][0-9]*$',
    description: 'The rate-limit window, in seconds.',
  }),
  SQLITE_SYNCHRONOUS: Type.Union([Type.Literal('NORMAL'), Type.Literal('FULL')], {
    default: 'FULL',
    description:
      '`FULL` fsyncs every commit; `NORMAL` is faster and may lose the last commits on power loss (never corrupts).',
  }),
  WEBHOOKS_ALLOW_PRIVATE: Bool(
    '`true` allows `http` and private/loopback webhook targets. Local development and tests only. Default computed in code: `false` (not in the schema: `loadConfig` sets it when unset).',
  ),
  API_DEPRECATION: Type.Optional(
    Type.String({
      description: 'When set, sent as the `Deprecation` header on every `/api/v1` response.',
    }),
  ),
  API_SUNSET: Type.Optional(
    Type.String({ description: 'When set, sent as the `Sunset` header on every `/api/v1` response.' }),
  ),
  WORKER_HEALTH_PORT: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,5}$',
      description:
        '`sitewright worker` only: a port of its own answering `/healthz` (the process answers) and `/readyz` (the database, its migrations and Redis answer), on `HOST`. Unset: the worker listens on no port.',
    }),
  ),
  METRICS: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'off',
    description:
      '`on`: serve Prometheus metrics at `/metrics` (and on `WORKER_HEALTH_PORT` for `sitewright worker`) to callers with `METRICS_TOKEN` or from `METRICS_ALLOW`; never on a site host (docs/operations.md, Metrics).',
  }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description:
        'A secret (16 characters or more) a scraper sends as `Authorization: Bearer ...` to read `/metrics` from anywhere, through a front proxy too.',
    }),
  ),
  METRICS_ALLOW: Type.String({
    default: '127.0.0.0/8,::1',
    description:
      'Comma-separated CIDRs (or addresses) that may read `/metrics` without the token, by their own address and only when the request came through no proxy (it carries no `X-Forwarded-For`).',
  }),
  BACKUP_DIR: Type.Optional(
    Type.String({
      description:
        'Directories the server writes a backup to every `BACKUP_INTERVAL`, comma-separated (each gets every backup: a second disk, a mounted share). Unset: the server makes no backups; `sitewright backup --to DIR` still does (docs/operations.md, Backups).',
    }),
  ),
  BACKUP_INTERVAL: Type.String({
    default: '24h',
    description:
      'How often the server makes a backup (`6h`, `24h`, `7d`), counted from midnight UTC; one instance of all those sharing the database makes each.',
  }),
  BACKUP_KEEP: Type.String({
    default: '7',
    pattern: '^[1-9][0-9]{0,3}$',
    description:
      'Backups kept in each `BACKUP_DIR` directory; older ones are removed after a backup succeeds.',
  }),
  BACKUP_COMMAND: Type.Optional(
    Type.String({
      description:
        'A shell command (`sh -c`) run after each scheduled backup to ship it elsewhere, with the backup file\'s path as `$1` and in `SITEWRIGHT_BACKUP_FILE`: `rclone copy "$1" remote:sitewright`, `aws s3 cp "$1" s3://bucket/`; a command naming neither gets the path as its last argument. Its failure is logged and shown with the backup.',
    }),
  ),
  SHUTDOWN_GRACE_MS: Type.String({
    default: '10000',
    pattern: '^[0-9]+$',
    description: 'How long in-flight requests may take to finish on SIGTERM/SIGINT, in milliseconds.',
  }),
  WEBHOOK_DISPATCHER: Bool(
    'Run the webhook dispatcher inside `sitewright start`. Default computed in code: `true` (not in the schema: `loadConfig` sets it when unset).',
  ),
  WEBHOOK_RETRY_SCHEDULE: Type.String({
    default: '0s,5s,5m,30m,2h,5h,10h,10h',
    description:
      'The delay before each delivery attempt, comma-separated durations (`ms`, `s`, `m`, `h`, `d`); the first must be `0s`.',
  }),
  WEBHOOK_TIMEOUT: Type.String({ default: '15s', description: 'Per-attempt timeout.' }),
  WEBHOOK_DISABLE_AFTER: Type.String({
    default: '5d',
    description: 'Switch an endpoint off after it fails continuously this long.',
  }),
  WEBHOOK_SECRET_ROTATION_OVERLAP: Type.String({
    default: '24h',
    description: 'How long the previous secret keeps signing after a rotation.',
  }),
  WEBHOOK_POLL_INTERVAL: Type.String({
    default: '100ms',
    description: 'How often an idle dispatcher looks for due deliveries.',
  }),
  WEBHOOK_CONCURRENCY: Type.String({
    default: '64',
    pattern: '^[1-9][0-9]{0,3}$',
    description: 'Attempts in flight at once per dispatcher.',
  }),
  WEBHOOK_ENDPOINT_CONCURRENCY: Type.String({
    default: '8',
    pattern: '^[1-9][0-9]{0,3}$',
    description: 'Attempts in flight at once to one endpoint, across all instances.',
  }),
  SITES_DOMAIN: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9.-]+(:[0-9]{1,5})?$',
      description:
        'Published sites answer on `{subdomain}.{SITES_DOMAIN}` (e.g. `sites.agency.com`), previews on `preview.{SITES_DOMAIN}`; a port is allowed. Default computed in code: `localhost:$PORT`.',
    }),
  ),
  SITES_SCHEME: Type.Optional(
    Type.Union([Type.Literal('http'), Type.Literal('https')], {
      description:
        'The scheme used in `published_url` on the sites domain. Default computed in code: the scheme of `PUBLIC_URL`.',
    }),
  ),
  SITES_IPV4: Type.Optional(
    Type.String({
      pattern: '^([0-9]{1,3}[.]){3}[0-9]{1,3}$',
      description:
        'The public IPv4 address apex custom domains point an `A` record at. Unset: apex domains are told to use a CNAME/ALIAS.',
    }),
  ),
  PREVIEW_TTL: Type.String({ default: '7d', description: 'How long a preview link works.' }),
  PREVIEW_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description:
        'Key that signs preview links (32+ characters). Default computed at run time: when unset, a key generated once and kept in the database, shared by every instance.',
    }),
  ),
  DNS_SERVERS: Type.Optional(
    Type.String({
      description:
        'Comma-separated resolvers for custom-domain checks: IP addresses, optionally with `:port` (`1.1.1.1,127.0.0.1:5353,[::1]:53`). Unset: the system resolvers.',
    }),
  ),
  DOMAIN_CHECK_INTERVAL: Type.String({
    default: '5m',
    description: 'How often pending custom domains are checked again in the background.',
  }),
  TRUST_PROXY: Type.String({
    default: 'false',
    description:
      "The front proxies whose `X-Forwarded-For` is believed, for every way in (pages, API, OAuth, MCP, sites): their addresses or CIDRs (`127.0.0.1`, `10.0.0.0/8,fd00::/8`), `true` (any proxy on loopback or a private network), or a hop count (`1`: the one proxy in front, whatever its address; only when nothing else can reach the server). The client's address is the rightmost entry no trusted proxy added; the leftmost, which the client writes, is never believed. Unset behind a proxy, every visitor has the proxy's address: see [Production layout](operations.md#production-layout).",
  }),
  TLS_ASK_ALLOW: Type.String({
    default: '127.0.0.0/8,::1',
    description:
      "Comma-separated CIDRs (or addresses) whose callers `GET /internal/tls/ask` answers; anyone else gets 404. Add the front proxy's private range when it does not run on the same machine.",
  }),
  MCP_ALLOWED_ORIGINS: Type.String({
    default: '',
    description:
      "Browser origins besides `PUBLIC_URL`'s that may call `/api/mcp` (comma-separated, e.g. `http://localhost:6274` for the MCP Inspector).",
  }),
  FORM_MAX_BYTES: Type.String({
    default: '65536',
    pattern: '^[1-9][0-9]*$',
    description: 'The largest form post a published site accepts, in bytes (413 above).',
  }),
  FORM_RATE_LIMIT: Type.String({
    default: '10',
    pattern: '^[1-9][0-9]*$',
    description: 'Form posts allowed per visitor address and site per `FORM_RATE_LIMIT_WINDOW` (429 above).',
  }),
  FORM_RATE_LIMIT_WINDOW: Type.String({ default: '10m', description: 'The form rate-limit window.' }),
  ANALYTICS_FLUSH_INTERVAL: Type.String({
    default: '1s',
    description:
      'How long captured views may wait in memory before they are written (1,000 waiting are written at once).',
  }),
  ANALYTICS_CAPTURE: Bool(
    'Record page views of published sites. Default computed in code: `true` (not in the schema: `loadConfig` sets it when unset).',
  ),
  ANALYTICS_RAW_RETENTION_DAYS: Type.String({
    default: '30',
    pattern: '^[0-9]{1,4}$',
    description:
      'Days raw page views (in packs, see [Traffic analytics](api/analytics-and-forms.md#traffic-analytics)) are kept; `0` stores none. Reports read the daily rollups, which are kept.',
  }),
  FILE_MAX_BYTES: Type.String({
    default: '5242880',
    pattern: '^[1-9][0-9]*$',
    description: 'The largest project file, in bytes (the default is 5 MiB).',
  }),
  PROJECT_MAX_BYTES: Type.String({
    default: '52428800',
    pattern: '^[1-9][0-9]*$',
    description: "The total size of one project's files, in bytes (the default is 50 MiB).",
  }),
  LARGE_UPLOADS_AT_ONCE: Type.String({
    default: '5',
    pattern: '^[1-9][0-9]*$',
    description:
      'API requests with a body over 1 MiB (or of unknown length) served at once; one more gets 503 with `Retry-After` until one ends. Bounds the memory uploads take.',
  }),
  IMAGE_MAX_PIXELS: Type.String({
    default: '50000000',
    pattern: '^[1-9][0-9]*$',
    description:
      'The largest picture a JPEG, PNG, WebP, AVIF or GIF file may hold, in pixels (width times height; the default is 50 megapixels). Read from the image header on upload, so a small file claiming a huge picture is refused before anything unpacks it.',
  }),
  PROJECT_MAX_FILES: Type.String({
    default: '1000',
    pattern: '^[1-9][0-9]*$',
    description: 'Files in one project.',
  }),
  AI_API_KEY: Type.Optional(
    Type.String({
      description: 'Enables the OpenAI-compatible provider for the models of `AI_MODELS`.',
    }),
  ),
  AI_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'Base URL of any OpenAI-compatible chat-completions API, e.g. `http://localhost:11434/v1`. Unset: OpenAI.',
    }),
  ),
  AI_MODELS: Type.String({
    default: 'gpt-4o-mini',
    description: 'Comma-separated models served by that provider (only with `AI_API_KEY`).',
  }),
  AI_DEFAULT_MODEL: Type.String({
    default: 'builtin',
    description: 'The model used when a request names none; must be `builtin` or one of `AI_MODELS`.',
  }),
  AI_TIMEOUT: Type.String({
    default: '120s',
    description:
      'How long the model may take to start answering, and the longest silence within its streamed answer.',
  }),
  AI_ALLOW_PRIVATE_ENDPOINTS: Type.Optional(
    Bool(
      "Whether an organization's own AI endpoint (*Settings → AI model*) may be on loopback or a private network, e.g. a local Ollama ([ai-models.md](ai-models.md)). Default computed in code from `REGISTRATION`: `true` with `REGISTRATION=invite`, `false` with `open`.",
    ),
  ),
  SECRETS_KEY: Type.Optional(
    Type.String({
      description:
        "32 random bytes (base64 or hex) sealing the keys organizations hand over; required to keep them with `DATABASE_URL`. Default computed at run time: when unset, on the embedded default (SQLite, no `DATABASE_URL`) a key made once in the key file `DATA_DIR/secrets.key` (mode 0600); with `DATABASE_URL`, none, so organizations' keys cannot be kept.",
    }),
  ),
  STRIPE_SECRET_KEY: Type.Optional(
    Type.String({
      pattern: '^(sk|rk)_(test|live)_[A-Za-z0-9]+$',
      description:
        "The operator's own Stripe secret key, for Stripe Connect: with `STRIPE_CONNECT_CLIENT_ID`, owners can *Connect with Stripe* instead of pasting a key ([billing.md](guide/billing.md)). Unset: each organization connects its own key.",
    }),
  ),
  STRIPE_CONNECT_CLIENT_ID: Type.Optional(
    Type.String({
      pattern: '^ca_[A-Za-z0-9]+$',
      description: "The platform's Connect client id (`ca_...`, Stripe Dashboard → Connect → Settings).",
    }),
  ),
  STRIPE_APPLICATION_FEE_PERCENT: Type.Optional(
    Type.String({
      pattern: '^(100(\\.0+)?|[0-9]{1,2}(\\.[0-9]{1,2})?)$',
      description:
        "Connect only: the operator's share of each invoice, in percent (e.g. `2.5`). Unset: none.",
    }),
  ),
  STRIPE_API_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        "Where the `stripe` library sends its calls: a Stripe-compatible endpoint (a local mock, an egress proxy). Unset: Stripe's own API. The webhook endpoints Sitewright registers are always under `PUBLIC_URL`.",
    }),
  ),
  GENERATION_WORKER: Bool(
    'Run AI generation jobs inside `sitewright start`. Default computed in code: `true` (not in the schema: `loadConfig` sets it when unset).',
  ),
  GENERATION_CONCURRENCY: Type.String({
    default: '2',
    pattern: '^[1-9][0-9]{0,2}$',
    description:
      'Generation jobs run at once per process (of different projects: a project’s own run one after another).',
  }),
  GENERATION_POLL_INTERVAL: Type.String({
    default: '1s',
    description: 'How often an idle worker looks for queued generations.',
  }),
  GENERATION_RETRY_SCHEDULE: Type.String({
    default: '0s,30s,2m',
    description: 'One try per entry: the delay before it (retryable failures only).',
  }),
  GENERATION_TIMEOUT: Type.String({
    default: '5m',
    description: 'A job running longer is aborted (and retried if tries remain).',
  }),
  REGISTRATION: Type.Union([Type.Literal('invite'), Type.Literal('open')], {
    default: 'invite',
    description:
      '`invite`: after the first account (the set-up page), accounts are created only by invitation; `open`: anyone may sign up with an organization of their own.',
  }),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      description:
        '`smtp://user:pass@host:port` (or `smtps://`) to send mail (invitations, password resets). Unset: messages are written to the log.',
    }),
  ),
  MAIL_FROM: Type.Optional(
    Type.String({
      description:
        'The sender of outgoing mail. Default computed in code: `Sitewright <no-reply@{host of PUBLIC_URL}>`.',
    }),
  ),
  SESSION_TTL: Type.String({ default: '30d', description: 'How long a sign-in lasts.' }),
});

/** The settings of every part: the core's (modules/settings.ts) and those of the ways in. */
export interface Config extends CoreSettings {
  port: number;
  host: string;
  redisUrl: string | undefined;
  /** Browser origins besides PUBLIC_URL's that may call /api/mcp (DNS-rebinding protection). */
  mcpAllowedOrigins: string[];
  logLevel: string;
  /** The front proxies whose X-Forwarded-For is believed (TRUST_PROXY), for every way in. */
  trustProxy: TrustProxy;
  rateLimit: { quota: number; windowSeconds: number };
  /** LARGE_UPLOADS_AT_ONCE: API requests with a large body served at once. */
  largeUploadsAtOnce: number;
  /** SECRETS_KEY: seals the secrets organizations hand over; without it the embedded default keeps a key file in DATA_DIR. */
  secretsKey: Buffer | undefined;
  /** STRIPE_*: the payment processor (providers/stripe/). */
  stripe: {
    secretKey: string | undefined;
    connectClientId: string | undefined;
    applicationFeePercent: number | undefined;
    apiUrl: string | undefined;
  };
  /** Deprecation and Sunset header values for /api/v1, sent only when set. */
  deprecation: { deprecation: string | undefined; sunset: string | undefined };
  shutdownGraceMs: number;
  /** WORKER_HEALTH_PORT: the worker's /healthz and /readyz; undefined: none. */
  workerHealthPort: number | undefined;
  /** METRICS=on: /metrics, to METRICS_TOKEN or METRICS_ALLOW; undefined: off. */
  metrics: MetricsAccess | undefined;
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
    largeUploadsAtOnce: Number(e.LARGE_UPLOADS_AT_ONCE),
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    secretsKey: secretsKey(e.SECRETS_KEY),
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      connectClientId: e.STRIPE_CONNECT_CLIENT_ID,
      applicationFeePercent:
        e.STRIPE_APPLICATION_FEE_PERCENT === undefined ? undefined : Number(e.STRIPE_APPLICATION_FEE_PERCENT),
      apiUrl: e.STRIPE_API_URL,
    },
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === 'true',
    deprecation: { deprecation: e.API_DEPRECATION, sunset: e.API_SUNSET },
    shutdownGraceMs: Number(e.SHUTDOWN_GRACE_MS),
    workerHealthPort: e.WORKER_HEALTH_PORT === undefined ? undefined : Number(e.WORKER_HEALTH_PORT),
    metrics:
      e.METRICS === 'on'
        ? { token: e.METRICS_TOKEN, allow: parseCidrList(cidrs('METRICS_ALLOW', e.METRICS_ALLOW).join(',')) }
        : undefined,
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
      maxImagePixels: Number(e.IMAGE_MAX_PIXELS),
    },
    accounts: {
      registration: e.REGISTRATION,
      smtpUrl: e.SMTP_URL,
      mailFrom:
        e.MAIL_FROM ?? `Sitewright <no-reply@${new URL(e.PUBLIC_URL ?? 'http://localhost').hostname}>`,
      sessionTtlMs: positiveDuration('SESSION_TTL', e.SESSION_TTL),
      secureCookies: (e.PUBLIC_URL ?? '').startsWith('https:'),
    },
    backup: {
      dirs: (e.BACKUP_DIR ?? '')
        .split(',')
        .map((dir) => dir.trim())
        .filter(Boolean),
      intervalMs: positiveDuration('BACKUP_INTERVAL', e.BACKUP_INTERVAL),
      keep: Number(e.BACKUP_KEEP),
      command: e.BACKUP_COMMAND,
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
