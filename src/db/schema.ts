// Table types for Kysely. Timestamps are written as ISO-8601 strings; PostgreSQL stores them as
// timestamptz and hands back Date objects, SQLite stores the text. Booleans come back as 0/1 on
// SQLite. db/rows.ts turns both into the API's types.
import type { ColumnType } from 'kysely';

export type Timestamp = ColumnType<string | Date, string, string>;
export type NullableTimestamp = ColumnType<string | Date | null, string | null, string | null>;
export type Bool = ColumnType<boolean | number, boolean, boolean>;
/** JSON arrays are kept as text on both engines: they are only ever read whole. */
export type JsonText = string;
/** COUNT() and other bigints come back as strings from pg. */
export type Num = ColumnType<number | string, number, number>;

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: Timestamp;
  /** Whether a visitor of the organization's build link may sign up as a new client. */
  build_link_signups: ColumnType<boolean | number, boolean | undefined, boolean>;
  /** JSON array of the exact origins that may frame the embeddable builder (migration 023). */
  embed_origins: ColumnType<string, string | undefined, string>;
  /** JSON object: what billing does to clients' sites (migration 024; modules/billing/settings.ts). */
  billing_settings: ColumnType<string, string | undefined, string>;
}

export interface OAuthClientsTable {
  client_id: string;
  /** `dcr`: registered dynamically; `cimd`: an https URL whose metadata document was fetched. */
  kind: 'dcr' | 'cimd';
  name: string;
  /** JSON array of the exact redirect URIs. */
  redirect_uris: string;
  client_uri: string | null;
  created_at: Timestamp;
  fetched_at: NullableTimestamp;
}

export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  user_id: string;
  org_id: string;
  /** Set when the user is an agency client's portal account: the grant sees that client's projects only. */
  org_client_id: string | null;
  scope: string;
  resource: string;
  created_at: Timestamp;
  /** Set when the grant's code is redeemed; until then the consent is pending and listed nowhere. */
  confirmed_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface OAuthCodesTable {
  code_hash: string;
  grant_id: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface OAuthTokensTable {
  token_hash: string;
  grant_id: string;
  kind: 'access' | 'refresh';
  expires_at: Timestamp;
  created_at: Timestamp;
  /** A refresh token is used once; using it again revokes the grant. */
  used_at: NullableTimestamp;
}

export interface BuildRequestsTable {
  /** SHA-256 of the token the link or the visitor carries. */
  token_hash: string;
  /** `link`: made through the API, its prompt too long for a URL (visits were once kept as `pending`). */
  kind: 'link';
  org_id: string | null;
  prompt: string;
  model: string | null;
  template_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A sign-up waiting for its email to be confirmed (migration 019). */
export interface SignupsTable {
  token_hash: string;
  /** `open`: a new account and organization; `build`: a new client of `org_id`, building `prompt`. */
  kind: 'open' | 'build';
  email: string;
  email_lower: string;
  password_hash: string;
  name: string | null;
  org_name: string | null;
  org_id: string | null;
  prompt: string | null;
  model: string | null;
  template_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** The AI model an organization connected itself (migration 021). */
export interface AiModelsTable {
  org_id: string;
  /** null: OpenAI's own API. */
  base_url: string | null;
  model: string;
  /** The key sealed with the installation's secrets key (lib/secrets.ts); null: the endpoint takes none. */
  api_key_sealed: string | null;
  /** The key's last four characters, to tell keys apart on the page. */
  api_key_hint: string | null;
  use_by_default: ColumnType<boolean | number, boolean, boolean>;
  checked_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  name: string | null;
  key_hash: string;
  prefix: string;
  /** Comma-separated, e.g. "read,write". */
  permissions: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface PlansTable {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  price: Num;
  interval: string;
  max_sites: number;
  max_ai_messages_daily: number;
  can_export_code: Bool;
  can_use_custom_domain: Bool;
  is_active: Bool;
  is_default: Bool;
  sort_order: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Migration 024: the plan's Product and current Price on the live billing connection. */
  stripe_product_id: ColumnType<string | null, string | null | undefined, string | null>;
  stripe_price_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ClientsTable {
  id: string;
  org_id: string;
  /** The builder user that owns this client's projects (Project.user_id). */
  user_id: string;
  email: string;
  /** Lower-cased email: uniqueness within an org is case-insensitive. */
  email_lower: string;
  name: string | null;
  company: string | null;
  status: string;
  plan_id: string | null;
  payment_status: string;
  /** The client's user id in the host product that embeds the builder (unique per organization). */
  external_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProjectsTable {
  id: string;
  org_id: string;
  user_id: string;
  org_client_id: string | null;
  name: string;
  /** Lower-cased name for `q` search, folded in JS so both engines agree beyond ASCII. */
  name_lower: string;
  description: string | null;
  status: string;
  template: string | null;
  template_id: string | null;
  tags: JsonText;
  starred: Bool;
  is_public: Bool;
  subdomain: string | null;
  custom_domain: string | null;
  custom_domain_status: string | null;
  published_url: string | null;
  last_published_at: NullableTimestamp;
  preview_image_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_opened_at: NullableTimestamp;
  /** The deployment the published site serves; null when unpublished. */
  current_deployment_id: string | null;
}

export interface TemplatesTable {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  category: string;
  thumbnail_url: string | null;
  is_public: Bool;
  is_featured: Bool;
  /** The project whose files the template snapshots (files arrive with the site-content capability). */
  source_project_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhooksTable {
  id: string;
  org_id: string;
  url: string;
  events: JsonText;
  is_active: Bool;
  secret: string;
  /** The secret before the last rotation: still signs deliveries until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: NullableTimestamp;
  /** Why the service switched the endpoint off (410 Gone, failing for days); null when the user did. */
  disabled_reason: string | null;
  /** Start of the current run of failed attempts; null after a success. */
  failing_since: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EventsTable {
  id: string;
  org_id: string;
  type: string;
  /** The JSON body sent to every endpoint: {"id", "type", "timestamp", "data"}. */
  payload: string;
  created_at: Timestamp;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'dropped';

export interface WebhookDeliveriesTable {
  id: string;
  org_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  /** When the next attempt is due; null once the delivery is finished. */
  next_attempt_at: NullableTimestamp;
  lease_until: NullableTimestamp;
  lease_token: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  /** The first 2 KB of the response body. */
  response_body: string | null;
}

/**
 * Raw page views of one site from one write batch (kept ANALYTICS_RAW_RETENTION_DAYS); reports
 * read page_view_rollups. `views` is JSON: an array of PackedView.
 */
export interface PageViewPacksTable {
  org_id: string;
  project_id: string;
  first_viewed_at: Timestamp;
  last_viewed_at: Timestamp;
  view_count: number;
  views: string;
}

/** One view in a pack: path, referrer host (null: direct), device, visitor hash, viewed_at (ISO 8601, UTC). */
export type PackedView = [
  path: string,
  referrer: string | null,
  device: string,
  visitorHash: string,
  viewedAt: string,
];

/** One file of a project's site; template_files has the same shape with template_id. */
export interface ProjectFilesTable {
  org_id: string;
  project_id: string;
  /** Normalised relative path, e.g. `index.html`, `assets/site.css`. */
  path: string;
  content: Buffer;
  content_type: string;
  size: number;
  sha256: string;
  updated_at: Timestamp;
}

/** A template's files: the content is in blobs, by sha256. */
export interface TemplateFilesTable extends Omit<ProjectFilesTable, 'project_id' | 'content'> {
  template_id: string;
}

/** File content by its sha256, shared by versions, deployments and templates. */
export interface BlobsTable {
  sha256: string;
  content: Buffer;
  size: number;
  created_at: Timestamp;
}

/** A served copy of a raster image blob: `width` pixels wide, in `format` (migration 028). */
export interface ImageVariantsTable {
  sha256: string;
  width: number;
  format: string;
  content: Buffer;
  size: number;
  created_at: Timestamp;
}

export type VersionSource = 'generation' | 'edit' | 'files_api' | 'restore' | 'template';

export interface VersionsTable {
  id: string;
  org_id: string;
  project_id: string;
  number: number;
  source: VersionSource;
  generation_id: string | null;
  summary: string | null;
  author_user_id: string | null;
  author_key_id: string | null;
  manifest_sha256: string;
  file_count: number;
  size: number;
  created_at: Timestamp;
}

export interface VersionFilesTable {
  version_id: string;
  path: string;
  sha256: string;
  size: number;
  content_type: string;
}

export type GenerationStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export type GenerationEventKind =
  'queued' | 'running' | 'step' | 'retrying' | 'succeeded' | 'failed' | 'cancelled';

export interface GenerationEventsTable {
  generation_id: string;
  seq: number;
  org_id: string;
  kind: GenerationEventKind;
  message: string;
  /** The file a step wrote, when it names one. */
  path: string | null;
  created_at: Timestamp;
}

export interface GenerationsTable {
  id: string;
  org_id: string;
  project_id: string;
  org_client_id: string | null;
  /** Who asked for it (a signed-in user, else an API key); the author of the version it makes. */
  author_user_id: string | null;
  author_key_id: string | null;
  prompt: string;
  /** JSON of the element the prompt is aimed at (ElementContext), or null for the whole site. */
  element: string | null;
  model: string;
  status: GenerationStatus;
  error: string | null;
  summary: string | null;
  /** JSON array of the paths written, once succeeded. */
  files: string | null;
  /** Tries started so far. */
  attempts: number;
  /** When the next try is due; null once finished. */
  next_attempt_at: NullableTimestamp;
  lease_until: NullableTimestamp;
  lease_token: string | null;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface DeploymentsTable {
  id: string;
  org_id: string;
  project_id: string;
  file_count: number;
  total_bytes: number;
  /** The version it published; null when published from builtFiles or before versions existed. */
  version_id: string | null;
  created_at: Timestamp;
  /** The site's address its pages were written for (canonical links); null before migration 026. */
  site_url: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An embed session (migration 023): a host product's user in the builder, for a while. */
export interface EmbedSessionsTable {
  id: string;
  org_id: string;
  client_id: string;
  project_id: string | null;
  /** The `embed` API key that created it. */
  key_id: string;
  mode: string;
  /** Comma-separated: generate, edit, publish, domains. */
  permissions: string;
  /** JSON array of origins. */
  allowed_origins: string;
  locale: string;
  /** JSON: {accent, mode}. */
  theme: string;
  token_hash: string;
  cookie_hash: string | null;
  /** The frame whose cookie this session's is (its own id, or the session it took over from). */
  frame_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  exchanged_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

/** A file of an archive upload on its way to a deployment (migration 022). */
export interface UploadFilesTable {
  upload_id: string;
  org_id: string;
  path: string;
  sha256: string;
  size: number;
  content: Buffer;
  created_at: Timestamp;
}

/** A deployment's files: the content is in blobs, by sha256. */
export interface DeploymentFilesTable {
  deployment_id: string;
  path: string;
  content_type: string;
  size: number;
  sha256: string;
}

export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export type DomainStatus = 'pending' | 'active' | 'failed';

export interface ProjectDomainsTable {
  id: string;
  org_id: string;
  project_id: string;
  /** Lower-case ASCII (punycode), no trailing dot. */
  domain: string;
  status: DomainStatus;
  /** The value of the TXT record that proves ownership. */
  verification_token: string;
  /** JSON object: record key -> 'ok' | 'missing' | 'wrong', from the last DNS check. */
  check_results: string | null;
  verified_at: NullableTimestamp;
  last_checked_at: NullableTimestamp;
  /** When the background check looks again; null once active or failed. */
  next_attempt_at: NullableTimestamp;
  attempts: number;
  lease_until: NullableTimestamp;
  lease_token: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AnalyticsSaltsTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  salt: string;
}

export type RollupDimension = 'all' | 'path' | 'referrer' | 'device';

export interface PageViewRollupsTable {
  org_id: string;
  /** A project id, or '*' for the whole organization. */
  scope: string;
  dimension: RollupDimension;
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** The path, referrer host or device; '' on 'all' rows. */
  key: string;
  views: number;
  /** Distinct visitors; counted on 'all' rows only. */
  visitors: number;
}

export interface PageViewVisitorsTable {
  project_id: string;
  day: string;
  visitor_hash: string;
}

export interface FormSubmissionsTable {
  id: string;
  org_id: string;
  project_id: string;
  form: string;
  /** JSON object of the posted fields. */
  fields: string;
  /** Path of the page the form was posted from, when known. */
  page: string | null;
  created_at: Timestamp;
}

/** AI messages (generations) a client used on one UTC day. */
export interface AiUsageTable {
  org_client_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  messages: number;
}

export interface UsersTable {
  id: string;
  email: string;
  /** Lower-cased email: one account per address, compared case-insensitively. */
  email_lower: string;
  name: string | null;
  /** argon2id (PHC string). */
  password_hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  /** owner, admin or member */
  role: string;
  created_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the session id in the cookie. */
  id_hash: string;
  user_id: string;
  /** The organization an agency member works in; null for a client's portal session. */
  org_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface InvitationsTable {
  id: string;
  org_id: string;
  /** 'member' or 'client' */
  kind: string;
  email: string;
  role: string | null;
  client_id: string | null;
  token_hash: string;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/** An organization's Stripe account (migration 024): its key, or Stripe Connect. */
export interface BillingConnectionsTable {
  /** In the webhook path: /webhooks/stripe/{id}. */
  id: string;
  org_id: string;
  /** `key` (the agency's own key) or `connect` (Stripe Connect). */
  method: string;
  account_id: string;
  account_name: string | null;
  livemode: Bool;
  /** `restricted` or `secret`; null with Connect. */
  key_kind: string | null;
  key_sealed: string | null;
  key_hint: string | null;
  /** The endpoint Sitewright made on the account; null with Connect (the platform's serves it). */
  webhook_endpoint_id: string | null;
  webhook_secret_sealed: string | null;
  connected_at: Timestamp;
  disconnected_at: NullableTimestamp;
}

/** The operator's Connect webhook endpoint, per platform account. */
export interface BillingPlatformTable {
  account_id: string;
  livemode: Bool;
  url: string;
  webhook_endpoint_id: string;
  webhook_secret_sealed: string;
  created_at: Timestamp;
}

/** Each processor event handled, by id: a replay changes nothing. */
export interface BillingEventsTable {
  connection_id: string;
  event_id: string;
  type: string;
  received_at: Timestamp;
}

/** Every Price made for a plan on a connection (archived ones keep naming their plan). */
export interface BillingPricesTable {
  connection_id: string;
  price_id: string;
  org_id: string;
  plan_id: string;
  product_id: string;
  /** In the currency's minor unit. */
  amount: Num;
  currency: string;
  /** `monthly` or `yearly`, as the plan says. */
  interval: string;
  active: Bool;
  created_at: Timestamp;
}

/** A client's Customer on a connection, and the subscription last read from the processor. */
export interface BillingCustomersTable {
  connection_id: string;
  client_id: string;
  org_id: string;
  customer_id: string;
  subscription_id: string | null;
  /** The processor's own status (active, past_due, unpaid, canceled, ...). */
  subscription_status: string | null;
  price_id: string | null;
  current_period_end: NullableTimestamp;
  past_due_since: NullableTimestamp;
  /** When the past-due automation acted on this episode; null again once it is paid. */
  past_due_acted_at: NullableTimestamp;
  /** The client's last Checkout Session: expired when a new link is made. */
  checkout_session_id: string | null;
  /** When the subscription state kept here was read from the processor (older reads lose). */
  read_at: NullableTimestamp;
  updated_at: Timestamp;
}

/** A paid invoice (`payment.received`). */
export interface PaymentsTable {
  id: string;
  org_id: string;
  client_id: string;
  connection_id: string;
  plan_id: string | null;
  invoice_id: string;
  subscription_id: string | null;
  amount: Num;
  currency: string;
  livemode: Bool;
  hosted_invoice_url: string | null;
  paid_at: Timestamp;
  created_at: Timestamp;
}

/** What billing stopped (a suspension, a site taken offline) and gives back on payment. */
export interface BillingHoldsTable {
  id: string;
  org_id: string;
  client_id: string;
  /** `suspended` or `unpublished`. */
  kind: string;
  project_id: string | null;
  deployment_id: string | null;
  previous_status: string | null;
  created_at: Timestamp;
}

/** What billing did to a client (suspended it, published its sites...). */
export interface BillingActivityTable {
  id: string;
  org_id: string;
  client_id: string;
  action: string;
  detail: string | null;
  created_at: Timestamp;
}

/** One backup, made by the schedule or by `sitewright backup` (db/migrations/025_backups.ts). */
export interface BackupRunsTable {
  id: string;
  /** `{interval ms}:{number}`: unique, so one instance makes each scheduled backup; null for a command's. */
  slot: string | null;
  /** `schedule` or `command`. */
  trigger: string;
  /** `running`, `succeeded` or `failed`. */
  status: string;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  lease_until: NullableTimestamp;
  lease_token: string | null;
  file_name: string | null;
  size: ColumnType<number | string | null, number | null, number | null>;
  /** JSON: the directories it was written to. */
  destinations: ColumnType<string, string | undefined, string>;
  error: string | null;
  command_error: string | null;
}

/** A project's site settings (migration 026): one JSON document (modules/site-settings). */
export interface SiteSettingsTable {
  project_id: string;
  org_id: string;
  settings: JsonText;
  updated_at: Timestamp;
}

/** Mail waiting to be sent, sent or given up on (migration 027; modules/mail/outbox.ts). */
export interface MailOutboxTable {
  id: string;
  org_id: string;
  project_id: string | null;
  /** What it is about: `form_notify`. */
  kind: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  body: string;
  /** `pending`, `sending` (leased), `sent` or `failed` (given up). */
  status: string;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  lease_until: NullableTimestamp;
  lease_token: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  sent_at: NullableTimestamp;
  /** Unique when set: a mail several instances may queue (a day's digest) is queued once. */
  dedupe_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DB {
  mail_outbox: MailOutboxTable;
  site_settings: SiteSettingsTable;
  backup_runs: BackupRunsTable;
  billing_connections: BillingConnectionsTable;
  billing_platform: BillingPlatformTable;
  billing_events: BillingEventsTable;
  billing_prices: BillingPricesTable;
  billing_customers: BillingCustomersTable;
  payments: PaymentsTable;
  billing_activity: BillingActivityTable;
  billing_holds: BillingHoldsTable;
  organizations: OrganizationsTable;
  build_requests: BuildRequestsTable;
  signups: SignupsTable;
  ai_models: AiModelsTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  api_keys: ApiKeysTable;
  plans: PlansTable;
  clients: ClientsTable;
  projects: ProjectsTable;
  templates: TemplatesTable;
  webhooks: WebhooksTable;
  events: EventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  page_view_packs: PageViewPacksTable;
  project_files: ProjectFilesTable;
  template_files: TemplateFilesTable;
  generations: GenerationsTable;
  deployments: DeploymentsTable;
  deployment_files: DeploymentFilesTable;
  blobs: BlobsTable;
  image_variants: ImageVariantsTable;
  upload_files: UploadFilesTable;
  embed_sessions: EmbedSessionsTable;
  generation_events: GenerationEventsTable;
  versions: VersionsTable;
  version_files: VersionFilesTable;
  service_secrets: ServiceSecretsTable;
  project_domains: ProjectDomainsTable;
  analytics_salts: AnalyticsSaltsTable;
  page_view_rollups: PageViewRollupsTable;
  page_view_visitors: PageViewVisitorsTable;
  form_submissions: FormSubmissionsTable;
  ai_usage: AiUsageTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
}
