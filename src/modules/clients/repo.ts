// SQL for clients. Every function takes the organization id: tenant scope is not optional.
import { sql, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import { likePattern } from '../projects/list-repo.ts';
import type { Database } from '../../db/index.ts';
import { forWrite } from '../../db/locks.ts';
import type { Executor } from '../../db/executor.ts';
import { prepareQuery } from '../../db/prepared.ts';
import { OrgList } from '../../db/org-list.ts';
import type { ClientsTable } from '../../db/schema.ts';
import { toIso } from '../../lib/clock.ts';
import type { Client } from './schema.ts';

export type ClientRow = Selectable<ClientsTable>;

export function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    company: row.company,
    status: row.status as Client['status'],
    plan_id: row.plan_id,
    payment_status: row.payment_status as Client['payment_status'],
    external_id: row.external_id,
    created_at: toIso(row.created_at),
  };
}

export function findClient(db: Executor, orgId: string, id: string): Promise<ClientRow | undefined> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findClientByEmail(
  db: Executor,
  orgId: string,
  email: string,
): Promise<ClientRow | undefined> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('email_lower', '=', email.toLowerCase())
    .executeTakeFirst();
}

/**
 * The client a new project is created for. With `lock` (PostgreSQL) the row stays locked until
 * the transaction ends, so two concurrent creates cannot both pass the plan's max_sites check.
 */
export function findClientByEmailForProject(
  db: Executor,
  orgId: string,
  email: string,
  lock: boolean,
): Promise<ClientRow | undefined> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('email_lower', '=', email.toLowerCase())
    .$if(lock, (qb) => forWrite(db, qb))
    .executeTakeFirst();
}

/**
 * The client's plan, for a quota check. With `lock` (PostgreSQL) the row stays locked until the
 * transaction ends, so two concurrent requests cannot both pass the check.
 */
export function findClientPlanId(
  db: Executor,
  orgId: string,
  id: string,
  lock: boolean,
): Promise<{ id: string; plan_id: string | null } | undefined> {
  return db
    .selectFrom('clients')
    .select(['id', 'plan_id'])
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .$if(lock, (qb) => forWrite(db, qb))
    .executeTakeFirst();
}

/** GET /clients, newest first: a page, or every record in keyset pages. */
export function clientList(database: Database): OrgList<ClientRow> {
  return new OrgList<ClientRow>(database, 'clients', { columns: ['created_at', 'id'], direction: 'desc' });
}

export type NewClientRow = Insertable<ClientsTable>;

export async function insertClient(db: Executor, row: NewClientRow): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

/** Many clients at once (imports, and the tests that need 100,000): 500 rows a statement, well
 *  within both engines' bound-parameter limits. Run it in a transaction to make it one write. */
export async function insertClients(db: Executor, rows: NewClientRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('clients')
      .values(rows.slice(i, i + 500))
      .execute();
}

export async function updateClient(
  db: Executor,
  orgId: string,
  id: string,
  changes: Updateable<ClientsTable>,
): Promise<void> {
  await db.updateTable('clients').set(changes).where('org_id', '=', orgId).where('id', '=', id).execute();
}

/** GET /clients/{id} is a hot path: one prepared statement, no query building per request. */
export function prepareFindClient(database: Database) {
  return prepareQuery<{ orgId: string; id: string }, ClientRow>(database, (p) =>
    database.db.selectFrom('clients').selectAll().where('org_id', '=', p('orgId')).where('id', '=', p('id')),
  );
}

/** A page of the organization's clients for the dashboard: `q` matches email, name or company. */
export async function searchClients(
  db: Executor,
  orgId: string,
  filter: { q?: string | undefined; status?: string | undefined },
  limit: number,
  offset: number,
): Promise<{ rows: ClientRow[]; total: number }> {
  let query = db.selectFrom('clients').where('org_id', '=', orgId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.q) {
    const pattern = likePattern(filter.q);
    // The same backslash escape on both engines (as the projects' search).
    query = query.where(
      sql<SqlBool>`(email_lower like ${pattern} escape '\\' or lower(coalesce(name, '')) like ${pattern} escape '\\' or lower(coalesce(company, '')) like ${pattern} escape '\\')`,
    );
  }
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
