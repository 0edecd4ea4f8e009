// What the minimal twin's database side must offer, and the JSON records it answers: the same
// fields, types and order as the API's Client and Project (spec section 3; the benchmark checks
// both servers' answers have the same shape before it measures).
export interface Caller {
  orgId: string;
  permissions: string;
}

export interface NewClient {
  email: string;
  name: string | null;
  company: string | null;
}

export interface Store {
  /** The bearer check: the key's SHA-256 (hex) looked up among keys not revoked. */
  caller(keyHash: string): Promise<Caller | undefined>;
  client(orgId: string, id: string): Promise<Client | undefined>;
  /** The `{projects, total}` body as JSON text, rows rendered as LIST_MODE says. */
  projectsPage(orgId: string, limit: number, offset: number): Promise<string>;
  /** One transaction: duplicate check, insert, the outbox event (and deliveries). undefined: duplicate email. */
  createClient(orgId: string, client: NewClient): Promise<Client | undefined>;
  /** One transaction: the project of the org, its new name. undefined: no such project. */
  renameProject(orgId: string, id: string, name: string): Promise<Project | undefined>;
  close(): Promise<void>;
}

/**
 * How the API under test renders a page of projects, which the twin must do alike: `rows` (the
 * current code: rows selected whole, mapped and serialized in JS) or `sql-json` (up to commit
 * 854ed1f: each row rendered as JSON text by the database). TWIN_PROJECT_LIST, default `rows`.
 */
export const LIST_MODE: 'rows' | 'sql-json' =
  process.env.TWIN_PROJECT_LIST === 'sql-json' ? 'sql-json' : 'rows';

/** The page's SQL; `?` placeholders, numbered for PostgreSQL by the caller. */
export function projectPageSql(engine: 'sqlite' | 'postgres'): string {
  const columns = LIST_MODE === 'rows' ? '*' : `${projectJsonSql(engine)} as "json"`;
  return `select ${columns} from "projects" where "org_id" = ? order by "created_at" desc, "id" desc limit ? offset ?`;
}

/** The body from the page's rows (either mode) and the total. */
export function projectPageBody(rows: (ProjectRow | { json: string })[], total: number): string {
  if (LIST_MODE === 'rows') return JSON.stringify({ projects: (rows as ProjectRow[]).map(toProject), total });
  return `{"projects":[${(rows as { json: string }[]).map((r) => r.json).join(',')}],"total":${total}}`;
}

type Time = string | Date | null;
export const iso = (t: Time): string | null =>
  t === null ? null : typeof t === 'string' ? t : t.toISOString();

export interface ClientRow {
  id: string;
  email: string;
  name: string | null;
  company: string | null;
  status: string;
  plan_id: string | null;
  payment_status: string;
  created_at: Time;
}

export const toClient = (r: ClientRow) => ({
  id: r.id,
  email: r.email,
  name: r.name,
  company: r.company,
  status: r.status,
  plan_id: r.plan_id,
  payment_status: r.payment_status,
  created_at: iso(r.created_at),
});
export type Client = ReturnType<typeof toClient>;

export interface ProjectRow {
  id: string;
  user_id: string;
  org_id: string;
  org_client_id: string | null;
  name: string;
  description: string | null;
  status: string;
  template: string | null;
  tags: string;
  starred: number | boolean;
  is_public: number | boolean;
  subdomain: string | null;
  custom_domain: string | null;
  custom_domain_status: string | null;
  published_url: string | null;
  last_published_at: Time;
  preview_image_url: string | null;
  created_at: Time;
  updated_at: Time;
  last_opened_at: Time;
}

export const toProject = (r: ProjectRow) => ({
  id: r.id,
  user_id: r.user_id,
  org_id: r.org_id,
  org_client_id: r.org_client_id,
  name: r.name,
  description: r.description,
  status: r.status,
  template: r.template,
  tags: JSON.parse(r.tags) as string[],
  starred: Boolean(r.starred),
  is_public: Boolean(r.is_public),
  subdomain: r.subdomain,
  custom_domain: r.custom_domain,
  custom_domain_status: r.custom_domain_status,
  published_url: r.published_url,
  last_published_at: iso(r.last_published_at),
  preview_image_url: r.preview_image_url,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
  last_opened_at: iso(r.last_opened_at),
});
export type Project = ReturnType<typeof toProject>;

/** The outbox record of a new client, serialized once as the API does (spec section 6). */
export function clientCreatedEvent(id: string, timestamp: string, client: Client): string {
  return JSON.stringify({ id, type: 'client.created', timestamp, data: { client } });
}

/** Active endpoints of the organization subscribed to the event type. */
export const subscribed = (hooks: { id: string; events: string }[], type: string): string[] =>
  hooks.filter((w) => (JSON.parse(w.events) as string[]).includes(type)).map((w) => w.id);

/** A project row as JSON text, per engine: the same expression the API's list uses. */
export function projectJsonSql(engine: 'sqlite' | 'postgres'): string {
  const time = (c: string) =>
    engine === 'postgres' ? `to_char("${c}" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `"${c}"`;
  const bool = (c: string) => (engine === 'postgres' ? `"${c}"` : `json(iif("${c}", 'true', 'false'))`);
  const text = (c: string) => `"${c}"`;
  const fields: [string, (c: string) => string][] = [
    ['id', text],
    ['user_id', text],
    ['org_id', text],
    ['org_client_id', text],
    ['name', text],
    ['description', text],
    ['status', text],
    ['template', text],
    ['tags', (c) => (engine === 'postgres' ? `"${c}"::json` : `json("${c}")`)],
    ['starred', bool],
    ['is_public', bool],
    ['subdomain', text],
    ['custom_domain', text],
    ['custom_domain_status', text],
    ['published_url', text],
    ['last_published_at', time],
    ['preview_image_url', text],
    ['created_at', time],
    ['updated_at', time],
    ['last_opened_at', time],
  ];
  const pairs = fields.map(([name, render]) => `'${name}', ${render(name)}`).join(', ');
  return engine === 'postgres' ? `json_build_object(${pairs})::text` : `json_object(${pairs})`;
}
