// Leasing due rows of a job table: one atomic statement marks up to `limit` due rows as taken by
// this worker until `lease_until`, under a token only this worker knows; the worker then writes
// its outcome under that token. On PostgreSQL rows are locked with FOR UPDATE SKIP LOCKED, so
// concurrent workers pass each other's rows by; on SQLite the single UPDATE ... RETURNING is
// atomic against every other connection. A row whose lease ran out is due again: its worker died.
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { newId } from '../lib/ids.ts';

/** Tables with the job columns: id, status, next_attempt_at, lease_until, lease_token. */
export type JobTable = 'generations' | 'project_domains';

export interface LeaseOptions {
  limit: number;
  leaseMs: number;
  /** Statuses a due row may have. */
  statuses: readonly string[];
  /** Status written on the leased rows. */
  leasedStatus: string;
  now?: number;
}

export interface Leased {
  ids: string[];
  token: string;
}

export async function leaseDue(database: Database, table: JobTable, opts: LeaseOptions): Promise<Leased> {
  const token = newId();
  const nowMs = opts.now ?? Date.now();
  const now = new Date(nowMs).toISOString();
  const until = new Date(nowMs + opts.leaseMs).toISOString();
  const statuses = sql.join(opts.statuses.map((s) => sql.lit(s)));
  const lock = database.engine === 'postgres' ? sql` FOR UPDATE SKIP LOCKED` : sql``;
  const due = sql`status IN (${statuses}) AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})`;
  const { rows } = await sql<{ id: string }>`
    UPDATE ${sql.table(table)} SET lease_until = ${until}, lease_token = ${token}, status = ${opts.leasedStatus},
      attempts = attempts + 1, updated_at = ${now}
    WHERE id IN (SELECT id FROM ${sql.table(table)} WHERE ${due} ORDER BY next_attempt_at LIMIT ${opts.limit}${lock})
      AND ${due}
    RETURNING id`.execute(database.db);
  return { ids: rows.map((r) => r.id), token };
}
