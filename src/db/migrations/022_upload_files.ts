// Files of an archive being uploaded (a site published as one zip or tar), written one by one as
// the archive streams in, so that a large upload never sits in memory whole. The publish copies
// them into blobs and the deployment in its own transaction and removes them; rows an
// interrupted upload left behind are removed by the next upload after an hour.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('upload_files')
    .addColumn('upload_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', bytes, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_files_pkey', ['upload_id', 'path'])
    .execute();
  await db.schema.createIndex('upload_files_created_at').on('upload_files').column('created_at').execute();
}
