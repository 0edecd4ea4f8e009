// Page-view capture and form submissions of published sites: the daily salts of visitor hashes
// (past days are deleted, so a hash cannot be linked across days), the daily rollups that
// analytics reads (so a 365-day report never scans raw views), the per-day visitor set that keeps
// the rollups' unique-visitor counts exact, and what site forms post.
import { sql, type Kysely } from 'kysely';
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

  await rebuildPageViews(db, engine);
  await rollUpExistingViews(db, engine);

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
  await db.schema
    .createIndex('form_submissions_project')
    .on('form_submissions')
    .columns(['project_id', 'created_at'])
    .execute();
}

/**
 * Raw views are now only appended (one per page served) and pruned by age; reports read the
 * rollups. The table keeps one index, on time, for pruning: it grows at its end. An index
 * leading with the project would be written at a random place for every view (measured: 5x
 * the cost of the insert itself); deleting a project or an organization scans the table instead.
 */
async function rebuildPageViews(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('page_views_new')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('referrer', 'text')
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addColumn('viewed_at', ts, (c) => c.notNull())
    .execute();
  await sql`insert into page_views_new (org_id, project_id, path, referrer, device, visitor_hash, viewed_at)
    select org_id, project_id, path, referrer, device, visitor_hash, viewed_at from page_views`.execute(db);
  await db.schema.dropTable('page_views').execute();
  await db.schema.alterTable('page_views_new').renameTo('page_views').execute();
  await db.schema.createIndex('page_views_time').on('page_views').column('viewed_at').execute();
}

/** Views recorded before the rollups existed get theirs, so no report loses them. */
async function rollUpExistingViews(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const day =
    engine === 'postgres'
      ? sql`to_char(viewed_at at time zone 'UTC', 'YYYY-MM-DD')`
      : sql`substr(viewed_at, 1, 10)`;
  const keys = { path: sql`path`, referrer: sql`coalesce(referrer, '(direct)')`, device: sql`device` };
  for (const scope of ['project', 'org'] as const) {
    const scopeExpr = scope === 'project' ? sql`project_id` : sql`'*'`;
    // PostgreSQL refuses a constant in GROUP BY: the organization scope groups without it.
    const groupScope = scope === 'project' ? sql`, project_id` : sql``;
    await sql`insert into page_view_rollups (org_id, scope, dimension, day, key, views, visitors)
      select org_id, ${scopeExpr}, 'all', ${day}, '', count(*), ${scope === 'project' ? sql`count(distinct visitor_hash)` : sql`0`}
      from page_views group by org_id${groupScope}, ${day}`.execute(db);
    for (const [dimension, key] of Object.entries(keys)) {
      await sql`insert into page_view_rollups (org_id, scope, dimension, day, key, views, visitors)
        select org_id, ${scopeExpr}, ${sql.lit(dimension)}, ${day}, ${key}, count(*), 0
        from page_views group by org_id${groupScope}, ${day}, ${key}`.execute(db);
    }
  }
  // An organization's visitors are the sum of its sites' (hashes include the site).
  await sql`update page_view_rollups set visitors = (
      select coalesce(sum(p.visitors), 0) from page_view_rollups p
      where p.org_id = page_view_rollups.org_id and p.dimension = 'all' and p.day = page_view_rollups.day and p.scope <> '*')
    where scope = '*' and dimension = 'all'`.execute(db);
}
