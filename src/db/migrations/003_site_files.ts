// Site content: the files of a project and the frozen copy a template keeps of them. Content is
// stored by the database engine itself (BLOB / bytea), so the embedded default needs nothing else.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';

  for (const [table, owner, ownerTable] of [
    ['project_files', 'project_id', 'projects'],
    ['template_files', 'template_id', 'templates'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn(owner, 'text', (c) => c.notNull().references(`${ownerTable}.id`).onDelete('cascade'))
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('content', bytes, (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [owner, 'path'])
      .execute();
  }
}
