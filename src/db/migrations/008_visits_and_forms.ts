// Page-view capture and form submissions of published sites: the daily salts of visitor hashes
// (past days are deleted, so a hash cannot be linked across days), the daily rollups that
// analytics reads (so a 365-day report never scans raw views), the per-day visitor set that keeps
// the rollups' unique-visitor counts exact, and what site forms post.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('analytics_salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', 'text', (c) => c.notNull())
    .execute();

  // One row per organization, scope (a project id, or '*' for the whole organization), dimension
  // ('all', 'path', 'referrer', 'device'), UTC day and key (the path, referrer host or device;
  // '' for 'all'). Every number is additive, so rows are bumped as views arrive and a project's
  // rows can be taken back out of its organization's when the project is deleted.
  await db.schema
    .createTable('page_view_rollups')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull())
    // Distinct visitor hashes; kept on 'all' rows only (0 elsewhere).
    .addColumn('visitors', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_view_rollups_pk', ['org_id', 'scope', 'dimension', 'day', 'key'])
    .execute();

  // Which visitor hashes a site has already seen today (and yesterday, for views written around
  // midnight); older days are deleted with their salts.
  await db.schema
    .createTable('page_view_visitors')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_view_visitors_pk', ['project_id', 'day', 'visitor_hash'])
    .execute();

  // Raw views are now only written and pruned by age (ANALYTICS_RAW_RETENTION_DAYS).
  await db.schema.dropIndex('page_views_org_time').execute();
  await db.schema.createIndex('page_views_time').on('page_views').column('viewed_at').execute();

  await db.schema
    .createTable('form_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('form', 'text', (c) => c.notNull())
    // JSON object of the fields as posted (string values).
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('page', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('form_submissions_project').on('form_submissions').columns(['project_id', 'created_at']).execute();
}
