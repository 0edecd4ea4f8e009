// Backups: one row per backup made, by the server's schedule or by `sitewright backup`. A
// scheduled backup's `slot` (the interval and its number since the epoch) is unique, so of several
// instances exactly one makes each; its lease lets another take over when that instance dies.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('backup_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slot', 'text', (c) => c.unique())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', ts, (c) => c.notNull())
    .addColumn('finished_at', ts)
    .addColumn('lease_until', ts)
    .addColumn('lease_token', 'text')
    .addColumn('file_name', 'text')
    .addColumn('size', 'bigint')
    .addColumn('destinations', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('error', 'text')
    .addColumn('command_error', 'text')
    .execute();
  await db.schema.createIndex('backup_runs_started').on('backup_runs').column('started_at').execute();
}
