// The progress of a generation as a person watches it: one row per thing that happened (queued,
// running, each step or file the provider reports, retrying, and how it ended), numbered per
// generation so a stream can resume after the last one it sent.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('generation_events')
    .addColumn('generation_id', 'text', (c) => c.notNull().references('generations.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('path', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('generation_events_pk', ['generation_id', 'seq'])
    .execute();
}
