// SQL for generations. Every function takes the organization id, except the worker's, which act
// on rows it is leasing or holds the lease of, and the AI message counts, kept per client (a
// client the caller has already found within its organization).
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Database } from '../../db/index.ts';
import { num, type Executor } from '../../db/executor.ts';
import type { GenerationsTable } from '../../db/schema.ts';
import { leaseDue, type Leased } from '../../jobs/lease.ts';
import { toIso } from '../../lib/clock.ts';
import type { Generation } from './schema.ts';

export type GenerationRow = Selectable<GenerationsTable>;

export function toGeneration(row: GenerationRow): Generation {
  return {
    id: row.id,
    project_id: row.project_id,
    status: row.status,
    prompt: row.prompt,
    model: row.model,
    summary: row.summary,
    error: row.error,
    files: row.files === null ? null : (JSON.parse(row.files) as string[]),
    attempts: row.attempts,
    created_at: toIso(row.created_at),
    started_at: toIso(row.started_at),
    finished_at: toIso(row.finished_at),
  };
}

export async function insertGeneration(db: Executor, row: Insertable<GenerationsTable>): Promise<void> {
  await db.insertInto('generations').values(row).execute();
}

export function findGeneration(
  db: Executor,
  orgId: string,
  projectId: string,
  id: string,
): Promise<GenerationRow | undefined> {
  return db
    .selectFrom('generations')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listGenerations(
  db: Executor,
  orgId: string,
  projectId: string,
  limit: number,
  offset: number,
) {
  const base = db.selectFrom('generations').where('org_id', '=', orgId).where('project_id', '=', projectId);
  const [rows, counted] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: num(counted.n) };
}

/** The AI messages a client has used on a UTC day (YYYY-MM-DD). */
export async function messagesUsed(db: Executor, clientId: string, day: string): Promise<number> {
  const row = await db
    .selectFrom('ai_usage')
    .select('messages')
    .where('org_client_id', '=', clientId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row ? num(row.messages) : 0;
}

/** Counts one more AI message for the client on that day. */
export async function countMessage(db: Executor, clientId: string, day: string): Promise<void> {
  await db
    .insertInto('ai_usage')
    .values({ org_client_id: clientId, day, messages: 1 })
    .onConflict((oc) =>
      oc
        .columns(['org_client_id', 'day'])
        .doUpdateSet((eb) => ({ messages: eb('ai_usage.messages', '+', 1) })),
    )
    .execute();
}

/**
 * Gives back one AI message of the client on that day: a request that changed nothing (refused by
 * the model, failed, or answered with the site as it was) does not count.
 */
export async function uncountMessage(db: Executor, clientId: string, day: string): Promise<void> {
  await db
    .updateTable('ai_usage')
    .set((eb) => ({ messages: eb('messages', '-', 1) }))
    .where('org_client_id', '=', clientId)
    .where('day', '=', day)
    .where('messages', '>', 0)
    .execute();
}

// The worker's statements: on generations it is leasing or holds the lease of (by token).

/** Leases due generations, each marked running with its try counted. */
export function leaseDueGenerations(database: Database, limit: number, leaseMs: number): Promise<Leased> {
  return leaseDue(database, 'generations', {
    limit,
    leaseMs,
    // A `running` row whose lease ran out lost its worker: it is taken over.
    statuses: ['queued', 'running'],
    leasedStatus: 'running',
    // One generation of a project at a time, in the order they were asked for: each builds on the
    // site as the one before left it (two at once would mix their answers file by file).
    alsoDue: (now) => sql`NOT EXISTS (
      SELECT 1 FROM generations earlier
      WHERE earlier.project_id = generations.project_id AND earlier.id <> generations.id
        AND earlier.status IN ('queued', 'running')
        AND (earlier.lease_until > ${now} OR earlier.created_at < generations.created_at
          OR (earlier.created_at = generations.created_at AND earlier.id < generations.id)))`,
  });
}

export function findLeased(db: Executor, ids: string[], token: string) {
  return db
    .selectFrom('generations')
    .select([
      'id',
      'org_id',
      'project_id',
      'org_client_id',
      'created_at',
      'prompt',
      'element',
      'model',
      'attempts',
      'author_user_id',
      'author_key_id',
    ])
    .where('id', 'in', ids)
    .where('lease_token', '=', token)
    .execute();
}

/**
 * Changes a generation while the worker holds its lease; false when it no longer does. With
 * `onlyIfNotStarted`, only a generation without started_at.
 */
export async function updateLeased(
  db: Executor,
  id: string,
  token: string,
  changes: Updateable<GenerationsTable>,
  opts: { onlyIfNotStarted?: boolean } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('generations')
    .set(changes)
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .$if(opts.onlyIfNotStarted === true, (qb) => qb.where('started_at', 'is', null))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function updateGeneration(
  db: Executor,
  id: string,
  changes: Updateable<GenerationsTable>,
): Promise<void> {
  await db.updateTable('generations').set(changes).where('id', '=', id).execute();
}

/** The generation's status now (undefined once deleted with its project). */
export async function generationStatus(
  db: Executor,
  id: string,
): Promise<GenerationsTable['status'] | undefined> {
  return (await db.selectFrom('generations').select('status').where('id', '=', id).executeTakeFirst())
    ?.status;
}
