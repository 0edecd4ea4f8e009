// The settings the core's services receive. The core never reads the environment or imports
// config.ts: config.ts validates the environment and builds a value of these shapes, and the
// container hands each service the part it needs.

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

/** Limits on a project's working files, in bytes and files, and on the pictures of its images. */
export interface FileLimits {
  maxFileBytes: number;
  maxProjectBytes: number;
  maxProjectFiles: number;
  maxImagePixels: number;
}

/** Everything the services of modules/index.ts are built from. */
/** Scheduled backups (BACKUP_*); `dirs` empty: none are made by the server. */
export interface BackupSettings {
  /** Every backup is written to each of these directories. */
  dirs: string[];
  intervalMs: number;
  /** Backups kept in each directory; older ones are removed after a backup succeeds. */
  keep: number;
  /** Run after each backup with the backup's path as its last argument. */
  command: string | undefined;
}

export interface CoreSettings {
  /** The dashboard's public origin (PUBLIC_URL), for links in mails, pages and records. */
  publicUrl: string;
  /** Where the embedded database lives, for the page-view writer's own connection. */
  dataDir: string;
  databaseUrl: string | undefined;
  sqliteSynchronous: 'NORMAL' | 'FULL';
  /** Whether webhook and client-metadata URLs may point at loopback or private networks. */
  webhooksAllowPrivate: boolean;
  webhooks: WebhookSettings;
  generation: GenerationSettings;
  ai: AiSettings;
  sites: SitesSettings;
  files: FileLimits;
  accounts: AccountSettings;
  backup: BackupSettings;
}
