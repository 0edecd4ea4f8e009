// Served copies of a site's raster images (issue 30): each blob's resized and re-encoded copies,
// made once with sharp when first asked for and kept by the source blob's sha256, so that every
// instance and every restart serves them without encoding again. They are derived data: removed
// with their blob, and made again if lost.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('image_variants')
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('content', bytes, (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('image_variants_pk', ['sha256', 'width', 'format'])
    .execute();
}
