// Leasing due rows: the one implementation, shared by every worker (webhook deliveries, AI
// generations, domain checks). One atomic statement marks the chosen rows as taken by this worker
// until `lease_until`, under a token only this worker knows; the worker then writes its outcome
// under that token. On PostgreSQL candidates are locked with FOR UPDATE SKIP LOCKED, so
// concurrent workers pass each other's rows by; on SQLite the single UPDATE ... RETURNING is
// atomic against every other connection. A row whose lease ran out is due again: its worker died.
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../db/index.ts';
import { newId } from '../lib/ids.ts';

/** Tables with the lease columns: id, next_attempt_at, lease_until, lease_token. */
export type LeaseTable = 'generations' | 'project_domains' | 'webhook_deliveries' | 'mail_outbox';

/** Tables with the job columns as well: status, attempts, updated_at. */
export type JobTable = 'generations' | 'project_domains' | 'mail_outbox';

/** A lease about to be taken: its token, the time it is taken, the time it runs out (ISO 8601). */
export interface Lease {
  token: string;
  now: string;
  until: string;
}

export function newLease(leaseMs: number, nowMs = Date.now()): Lease {
  return {
    token: newId(),
    now: new Date(nowMs).toISOString(),
    until: new Date(nowMs + leaseMs).toISOString(),
  };
}

export interface Leased {
  ids: string[];
  token: string;
}

/** Ends a candidate subquery: the rows it picks stay locked for the lease statement (PostgreSQL). */
export function skipLocked(database: Database): RawBuilder<unknown> {
  return database.engine === 'postgres' ? sql` FOR UPDATE SKIP LOCKED` : sql``;
}

export interface LeaseRows {
  table: LeaseTable;
  /** Subqueries selecting the ids of due rows, each ending in skipLocked(); their union is leased. */
  candidates: RawBuilder<unknown>[];
  /** Checked again on every candidate by the statement itself: the row is still free to lease. */
  stillFree: RawBuilder<unknown>;
  /** Columns the table sets besides the lease itself (status, attempt counters). */
  alsoSet?: RawBuilder<unknown>;
}

/**
 * Leases the candidate rows that are still free under `lease`; returns the ids it got.
 *
 * The candidates are picked once, in a materialized CTE. As `WHERE id IN (subquery)`, PostgreSQL
 * may run the subquery again for every row it updates (a nested-loop semi-join, chosen for small
 * or freshly analyzed tables); each run skips the rows this statement already updated and takes
 * the next ones past its LIMIT, and the statement leased more rows than asked for.
 */
export async function leaseRows(database: Database, lease: Lease, rows: LeaseRows): Promise<string[]> {
  const alsoSet = rows.alsoSet ? sql`, ${rows.alsoSet}` : sql``;
  const { rows: leased } = await sql<{ id: string }>`
    WITH picked AS MATERIALIZED (${sql.join(rows.candidates, sql` UNION ALL `)})
    UPDATE ${sql.table(rows.table)} SET lease_until = ${lease.until}, lease_token = ${lease.token}${alsoSet}
    WHERE id IN (SELECT id FROM picked)
      AND ${rows.stillFree}
    RETURNING id`.execute(database.db);
  return leased.map((r) => r.id);
}

export interface LeaseDueOptions {
  limit: number;
  leaseMs: number;
  /** Statuses a due row may have. */
  statuses: readonly string[];
  /** Status written on the leased rows. */
  leasedStatus: string;
  /** One more condition a due row meets, given `now` (in it, the table's own name is the row). */
  alsoDue?: (now: string) => RawBuilder<unknown>;
  now?: number;
}

/**
 * The job tables' lease: up to `limit` due rows, oldest due first, each try counted in `attempts`
 * when it is leased (so a try whose worker died still counts) and the row given `leasedStatus`.
 */
export async function leaseDue(database: Database, table: JobTable, opts: LeaseDueOptions): Promise<Leased> {
  const lease = newLease(opts.leaseMs, opts.now);
  const { now } = lease;
  const statuses = sql.join(opts.statuses.map((s) => sql.lit(s)));
  const also = opts.alsoDue ? sql` AND ${opts.alsoDue(now)}` : sql``;
  const due = sql`status IN (${statuses}) AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})${also}`;
  const ids = await leaseRows(database, lease, {
    table,
    candidates: [
      sql`SELECT id FROM ${sql.table(table)} WHERE ${due} ORDER BY next_attempt_at LIMIT ${opts.limit}${skipLocked(database)}`,
    ],
    stillFree: due,
    alsoSet: sql`status = ${opts.leasedStatus}, attempts = attempts + 1, updated_at = ${now}`,
  });
  return { ids, token: lease.token };
}
