// The locks a write takes, one function each, decided per engine here and nowhere else.
import { sql } from 'kysely';
import { engineOf } from './engine.ts';
import type { Executor } from './executor.ts';

/**
 * Row lock until the transaction ends: `FOR UPDATE` on PostgreSQL. On SQLite every transaction
 * already holds the database's write lock from BEGIN IMMEDIATE, which is stronger, so nothing is
 * added there.
 */
export function forWrite<QB extends { forUpdate(): QB }>(trx: Executor, query: QB): QB {
  return engineOf(trx) === 'postgres' ? query.forUpdate() : query;
}

/**
 * Takes the row lock of `query` and nothing else: on SQLite, where the transaction already holds
 * the database, no query runs at all (a progress event must not pay a read for nothing).
 */
export async function holdRows<QB extends { forUpdate(): QB; execute(): Promise<unknown> }>(
  trx: Executor,
  query: QB,
): Promise<void> {
  if (engineOf(trx) === 'postgres') await query.forUpdate().execute();
}

// On PostgreSQL a writer that finds a blob stored (and so does not store it) must not have it swept
// away by a concurrent deletion before its own reference commits: writers hold this lock shared
// and the sweep exclusively, each until its transaction ends. SQLite runs one writer at a time.
const BLOB_LOCK = 0x5_17e_b10b;

/** Holds the blob store for writing (shared with other writers) or for a sweep (alone). */
export async function holdBlobStore(trx: Executor, mode: 'write' | 'sweep'): Promise<void> {
  if (engineOf(trx) !== 'postgres') return;
  if (mode === 'write') await sql`select pg_advisory_xact_lock_shared(${BLOB_LOCK})`.execute(trx);
  else await sql`select pg_advisory_xact_lock(${BLOB_LOCK})`.execute(trx);
}
