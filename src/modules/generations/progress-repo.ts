// SQL for a generation's progress events. The writes act on a generation the caller already
// holds: its row locked in the caller's transaction, or leased by the calling worker (as the
// worker's functions in repo.ts do); the event itself carries its organization. Events are read
// within the organization.
import type { Insertable } from 'kysely';
import { holdRows } from '../../db/locks.ts';
import type { Executor } from '../../db/executor.ts';
import type { GenerationEventsTable } from '../../db/schema.ts';

/** Locks the generation's row until the transaction ends (db/locks.ts). */
export async function lockGeneration(trx: Executor, generationId: string): Promise<void> {
  await holdRows(trx, trx.selectFrom('generations').select('id').where('id', '=', generationId));
}

/** The token of the worker leasing the generation, if any. */
export async function leaseTokenOf(db: Executor, generationId: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('generations')
    .select('lease_token')
    .where('id', '=', generationId)
    .executeTakeFirst();
  return row?.lease_token;
}

/** The highest event number of the generation so far, if it has any. */
export async function lastEventSeq(db: Executor, generationId: string) {
  const last = await db
    .selectFrom('generation_events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('generation_id', '=', generationId)
    .executeTakeFirst();
  return last?.seq;
}

export async function insertEvent(db: Executor, row: Insertable<GenerationEventsTable>): Promise<void> {
  await db.insertInto('generation_events').values(row).execute();
}

/** The generation's events after `afterSeq`, in order, 500 at most. */
export function eventsAfter(db: Executor, orgId: string, generationId: string, afterSeq: number) {
  return db
    .selectFrom('generation_events')
    .select(['seq', 'kind', 'message', 'path', 'created_at'])
    .where('org_id', '=', orgId)
    .where('generation_id', '=', generationId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(500)
    .execute();
}
