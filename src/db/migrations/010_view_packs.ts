// Raw page views in packs: one row per site and write batch, holding that batch's views as a JSON
// array, instead of one row per view. A row per view was most of what capture cost (SQLite wrote
// a row, its time-index entry and two foreign-key checks for every page served); a pack costs that
// once per batch. Reports never read raw views (they read the rollups); packs are kept
// ANALYTICS_RAW_RETENTION_DAYS and deleted whole by the time of their last view. Existing views
// are packed per site and UTC day, nothing is lost.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('page_view_packs')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('first_viewed_at', ts, (c) => c.notNull())
    .addColumn('last_viewed_at', ts, (c) => c.notNull())
    .addColumn('view_count', 'integer', (c) => c.notNull())
    // JSON: [[path, referrer host or null, device, visitor hash, viewed_at (ISO 8601, UTC)], ...]
    .addColumn('views', 'text', (c) => c.notNull())
    .execute();
  // Pruning goes by time; deleting a project finds its packs (few rows: an index is cheap here).
  await db.schema
    .createIndex('page_view_packs_time')
    .on('page_view_packs')
    .column('last_viewed_at')
    .execute();
  await db.schema.createIndex('page_view_packs_project').on('page_view_packs').column('project_id').execute();

  if (engine === 'postgres') {
    const iso = sql`to_char(viewed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    await sql`insert into page_view_packs (org_id, project_id, first_viewed_at, last_viewed_at, view_count, views)
      select org_id, project_id, min(viewed_at), max(viewed_at), count(*),
        json_agg(json_build_array(path, referrer, device, visitor_hash, ${iso}) order by viewed_at)::text
      from page_views group by org_id, project_id, to_char(viewed_at at time zone 'UTC', 'YYYY-MM-DD')`.execute(
      db,
    );
  } else {
    await sql`insert into page_view_packs (org_id, project_id, first_viewed_at, last_viewed_at, view_count, views)
      select org_id, project_id, min(viewed_at), max(viewed_at), count(*),
        json_group_array(json_array(path, referrer, device, visitor_hash, viewed_at))
      from (select * from page_views order by viewed_at) group by org_id, project_id, substr(viewed_at, 1, 10)`.execute(
      db,
    );
  }
  await db.schema.dropTable('page_views').execute();
}
