// The record of backups made (db/migrations/025_backups.ts).
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { toIso } from '../../lib/clock.ts';
import type { Lease as JobLease } from '../../jobs/lease.ts';

export interface BackupRun {
  id: string;
  trigger: 'schedule' | 'command';
  /** `interrupted`: it was running when its process died (or when the backup it is in was taken). */
  status: 'running' | 'succeeded' | 'failed' | 'interrupted';
  started_at: string;
  finished_at: string | null;
  file_name: string | null;
  size: number | null;
  destinations: string[];
  error: string | null;
  command_error: string | null;
}

type Row = Selectable<DB['backup_runs']>;

function toRun(row: Row): BackupRun {
  const died =
    row.status === 'running' &&
    (row.lease_until === null || toIso(row.lease_until) < new Date().toISOString());
  return {
    id: row.id,
    trigger: row.trigger as BackupRun['trigger'],
    status: died ? 'interrupted' : (row.status as BackupRun['status']),
    started_at: toIso(row.started_at),
    finished_at: row.finished_at === null ? null : toIso(row.finished_at),
    file_name: row.file_name,
    size: row.size === null ? null : Number(row.size),
    destinations: JSON.parse(row.destinations) as string[],
    error: row.error,
    command_error: row.command_error,
  };
}

/** The newest runs first. */
export async function listRuns(db: Kysely<DB>, limit: number): Promise<BackupRun[]> {
  const rows = await db
    .selectFrom('backup_runs')
    .selectAll()
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRun);
}

/** The newest run that ended as `status`. */
export async function lastRun(
  db: Kysely<DB>,
  status: 'succeeded' | 'failed',
): Promise<BackupRun | undefined> {
  const row = await db
    .selectFrom('backup_runs')
    .selectAll()
    .where('status', '=', status)
    .orderBy('finished_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toRun(row) : undefined;
}

/** A run's lease (jobs/lease.ts `newLease`) and the run's id. */
export type Lease = JobLease & { id: string };

/** Records a backup the command makes: no slot, and a lease only to tell when it died. */
export async function startCommandRun(db: Kysely<DB>, lease: Lease): Promise<void> {
  await db
    .insertInto('backup_runs')
    .values({
      id: lease.id,
      slot: null,
      trigger: 'command',
      status: 'running',
      started_at: lease.now,
      lease_until: lease.until,
      lease_token: lease.token,
    })
    .execute();
}

/**
 * Takes the scheduled backup of `slot`: the first instance to ask inserts it; another may take it
 * over when its lease ran out (the instance died) or when it failed more than `retryMs` ago.
 * Answers the run's id when this instance now holds it.
 */
export async function claimSlot(
  db: Kysely<DB>,
  slot: string,
  lease: Lease,
  retryBefore: string,
): Promise<string | undefined> {
  const inserted = await db
    .insertInto('backup_runs')
    .values({
      id: lease.id,
      slot,
      trigger: 'schedule',
      status: 'running',
      started_at: lease.now,
      lease_until: lease.until,
      lease_token: lease.token,
    })
    .onConflict((oc) => oc.column('slot').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  const taken = await db
    .updateTable('backup_runs')
    .set({ status: 'running', started_at: lease.now, lease_until: lease.until, lease_token: lease.token })
    .where('slot', '=', slot)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'running'), eb('lease_until', '<', lease.now)]),
        eb.and([eb('status', '=', 'failed'), eb('finished_at', '<', retryBefore)]),
      ]),
    )
    .returning('id')
    .executeTakeFirst();
  return taken?.id;
}

/** Extends a running backup's lease; false when another instance has taken it over. */
export async function renewLease(db: Kysely<DB>, id: string, token: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('backup_runs')
    .set({ lease_until: until })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface Outcome {
  status: 'succeeded' | 'failed';
  finished_at: string;
  file_name?: string | null;
  size?: number | null;
  destinations?: string[];
  error?: string | null;
  command_error?: string | null;
}

/** Writes how a run ended, under its lease token. */
export async function finishRun(db: Kysely<DB>, id: string, token: string, outcome: Outcome): Promise<void> {
  await db
    .updateTable('backup_runs')
    .set({
      status: outcome.status,
      finished_at: outcome.finished_at,
      lease_until: null,
      lease_token: null,
      ...(outcome.file_name !== undefined ? { file_name: outcome.file_name } : {}),
      ...(outcome.size !== undefined ? { size: outcome.size } : {}),
      ...(outcome.destinations ? { destinations: JSON.stringify(outcome.destinations) } : {}),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      ...(outcome.command_error !== undefined ? { command_error: outcome.command_error } : {}),
    })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .execute();
}

/** The installation's first organization (the one its set-up page or first `org create` made): its owners are the operator's. */
export async function firstOrgId(db: Kysely<DB>): Promise<string | undefined> {
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}
