// The minimal twin's SQLite side: better-sqlite3 directly, every statement prepared once. Laid
// out as the API's database layer is (db/index.ts): a writer connection in WAL mode with
// synchronous=FULL (the shipped default) for transactions, a read-only connection for reads.
import SQLite from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import {
  clientCreatedEvent,
  projectPageBody,
  projectPageSql,
  subscribed,
  toClient,
  toProject,
  type ClientRow,
  type NewClient,
  type ProjectRow,
  type Store,
} from './records.ts';

export function sqliteStore(file: string): Store {
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = FULL');
  writer.pragma('foreign_keys = ON');
  writer.pragma('busy_timeout = 5000');
  const reader = new SQLite(file, { readonly: true });
  reader.pragma('busy_timeout = 5000');

  const key = reader.prepare<
    [string],
    { id: string; org_id: string; permissions: string; last_used_at: string | null }
  >(
    'select "id", "org_id", "permissions", "last_used_at" from "api_keys" where "key_hash" = ? and "revoked_at" is null',
  );
  const client = reader.prepare<[string, string], ClientRow>(
    'select * from "clients" where "org_id" = ? and "id" = ?',
  );
  const page = reader.prepare<[string, number, number], ProjectRow | { json: string }>(
    projectPageSql('sqlite'),
  );
  const count = reader.prepare<[string], { n: number }>(
    'select count(*) as "n" from "projects" where "org_id" = ?',
  );

  const byEmail = writer.prepare('select * from "clients" where "org_id" = ? and "email_lower" = ?');
  const insertClient = writer.prepare(
    'insert into "clients" ("id", "org_id", "user_id", "email", "email_lower", "name", "company", "status", "plan_id", "payment_status", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const hooks = writer.prepare<[string, number], { id: string; events: string }>(
    'select "id", "events" from "webhooks" where "org_id" = ? and "is_active" = ?',
  );
  const insertEvent = writer.prepare(
    'insert into "events" ("id", "org_id", "type", "payload", "created_at") values (?, ?, ?, ?, ?)',
  );
  const insertDelivery = writer.prepare(
    'insert into "webhook_deliveries" ("id", "org_id", "webhook_id", "event_id", "event_type", "status", "attempt_count", "next_attempt_at", "lease_until", "lease_token", "created_at", "updated_at") values (?, ?, ?, ?, ?, \'pending\', 0, ?, null, null, ?, ?)',
  );
  const project = writer.prepare<[string, string], ProjectRow>(
    'select * from "projects" where "org_id" = ? and "id" = ?',
  );
  const rename = writer.prepare(
    'update "projects" set "name" = ?, "name_lower" = ?, "updated_at" = ? where "org_id" = ? and "id" = ?',
  );

  const create = writer.transaction((orgId: string, c: NewClient) => {
    if (byEmail.get(orgId, c.email.toLowerCase())) return undefined;
    const now = new Date().toISOString();
    const row: ClientRow = {
      id: uuidv7(),
      email: c.email,
      name: c.name,
      company: c.company,
      status: 'invited',
      plan_id: null,
      payment_status: 'none',
      created_at: now,
    };
    insertClient.run(
      row.id,
      orgId,
      uuidv7(),
      c.email,
      c.email.toLowerCase(),
      c.name,
      c.company,
      row.status,
      null,
      row.payment_status,
      now,
      now,
    );
    const created = toClient(row);
    const eventId = uuidv7();
    const timestamp = new Date().toISOString();
    const endpoints = subscribed(hooks.all(orgId, 1), 'client.created');
    insertEvent.run(
      eventId,
      orgId,
      'client.created',
      clientCreatedEvent(eventId, timestamp, created),
      timestamp,
    );
    for (const webhookId of endpoints)
      insertDelivery.run(
        uuidv7(),
        orgId,
        webhookId,
        eventId,
        'client.created',
        timestamp,
        timestamp,
        timestamp,
      );
    return created;
  });
  const update = writer.transaction((orgId: string, id: string, name: string) => {
    const current = project.get(orgId, id);
    if (!current) return undefined;
    if (current.name === name) return toProject(current);
    const updated_at = new Date().toISOString();
    rename.run(name, name.toLowerCase(), updated_at, orgId, id);
    return toProject({ ...current, name, updated_at });
  });

  return {
    async caller(keyHash) {
      const row = key.get(keyHash);
      return row && { orgId: row.org_id, permissions: row.permissions };
    },
    async client(orgId, id) {
      const row = client.get(orgId, id);
      return row && toClient(row);
    },
    async projectsPage(orgId, limit, offset) {
      const rows = page.all(orgId, limit, offset);
      // As the API: a short page that is not past the end tells the total without a count.
      const total =
        rows.length < limit && (rows.length > 0 || offset === 0)
          ? offset + rows.length
          : (count.get(orgId)?.n ?? 0);
      return projectPageBody(rows, total);
    },
    createClient: async (orgId, c) => create(orgId, c),
    renameProject: async (orgId, id, name) => update(orgId, id, name),
    async close() {
      reader.close();
      writer.close();
    },
  };
}
