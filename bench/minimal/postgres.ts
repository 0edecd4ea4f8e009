// The minimal twin's PostgreSQL side: a `pg` pool of 10 connections (the API's size), reads as
// single parameterized queries on the pool, writes in a transaction on one pooled connection, as
// the API's database layer sends them (the same SQL text).
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import {
  clientCreatedEvent,
  projectPageBody,
  projectPageSql,
  subscribed,
  toClient,
  toProject,
  type ClientRow,
  type ProjectRow,
  type Store,
} from './records.ts';

/** `?` placeholders as PostgreSQL's $1, $2, ... */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const SQL = {
  key: 'select "id", "org_id", "permissions", "last_used_at" from "api_keys" where "key_hash" = $1 and "revoked_at" is null',
  client: 'select * from "clients" where "org_id" = $1 and "id" = $2',
  page: numbered(projectPageSql('postgres')),
  count: 'select count(*) as "n" from "projects" where "org_id" = $1',
  byEmail: 'select * from "clients" where "org_id" = $1 and "email_lower" = $2',
  insertClient:
    'insert into "clients" ("id", "org_id", "user_id", "email", "email_lower", "name", "company", "status", "plan_id", "payment_status", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)',
  hooks: 'select "id", "events" from "webhooks" where "org_id" = $1 and "is_active" = $2',
  insertEvent:
    'insert into "events" ("id", "org_id", "type", "payload", "created_at") values ($1, $2, $3, $4, $5)',
  insertDelivery:
    'insert into "webhook_deliveries" ("id", "org_id", "webhook_id", "event_id", "event_type", "status", "attempt_count", "next_attempt_at", "lease_until", "lease_token", "created_at", "updated_at") values ($1, $2, $3, $4, $5, \'pending\', 0, $6, null, null, $7, $8)',
  project: 'select * from "projects" where "org_id" = $1 and "id" = $2',
  rename:
    'update "projects" set "name" = $1, "name_lower" = $2, "updated_at" = $3 where "org_id" = $4 and "id" = $5',
};

export function postgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {}); // an idle connection ended by the server: the pool replaces it
  const one = async <R extends pg.QueryResultRow>(text: string, values: unknown[]) =>
    (await pool.query<R>({ text, values })).rows[0];

  async function transaction<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await pool.connect();
    try {
      await c.query('begin');
      const result = await work(c);
      await c.query('commit');
      return result;
    } catch (error) {
      await c.query('rollback');
      throw error;
    } finally {
      c.release();
    }
  }

  return {
    async caller(keyHash) {
      const row = await one<{ org_id: string; permissions: string }>(SQL.key, [keyHash]);
      return row && { orgId: row.org_id, permissions: row.permissions };
    },
    async client(orgId, id) {
      const row = await one<ClientRow>(SQL.client, [orgId, id]);
      return row && toClient(row);
    },
    async projectsPage(orgId, limit, offset) {
      const rows = (
        await pool.query<ProjectRow | { json: string }>({ text: SQL.page, values: [orgId, limit, offset] })
      ).rows;
      // As the API: a short page that is not past the end tells the total without a count.
      const total =
        rows.length < limit && (rows.length > 0 || offset === 0)
          ? offset + rows.length
          : Number((await one<{ n: string }>(SQL.count, [orgId]))?.n ?? 0);
      return projectPageBody(rows, total);
    },
    createClient: (orgId, c) =>
      transaction(async (trx) => {
        if ((await trx.query(SQL.byEmail, [orgId, c.email.toLowerCase()])).rows.length > 0) return undefined;
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
        await trx.query(SQL.insertClient, [
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
        ]);
        const created = toClient(row);
        const eventId = uuidv7();
        const timestamp = new Date().toISOString();
        const endpoints = subscribed(
          (await trx.query<{ id: string; events: string }>(SQL.hooks, [orgId, true])).rows,
          'client.created',
        );
        await trx.query(SQL.insertEvent, [
          eventId,
          orgId,
          'client.created',
          clientCreatedEvent(eventId, timestamp, created),
          timestamp,
        ]);
        for (const webhookId of endpoints)
          await trx.query(SQL.insertDelivery, [
            uuidv7(),
            orgId,
            webhookId,
            eventId,
            'client.created',
            timestamp,
            timestamp,
            timestamp,
          ]);
        return created;
      }),
    renameProject: (orgId, id, name) =>
      transaction(async (trx) => {
        const current = (await trx.query<ProjectRow>(SQL.project, [orgId, id])).rows[0];
        if (!current) return undefined;
        if (current.name === name) return toProject(current);
        const updated_at = new Date().toISOString();
        await trx.query(SQL.rename, [name, name.toLowerCase(), updated_at, orgId, id]);
        return toProject({ ...current, name, updated_at });
      }),
    close: () => pool.end(),
  };
}
