// SQL of recording page views. First the three bulk statements behind every batch, one
// implementation per engine, because they run for every batch of views served and Kysely's
// build-and-compile of a 100-row insert costs more than SQLite's insert itself. SQLite: statements
// prepared once on the writer connection, one row per run. PostgreSQL: one statement per batch
// whatever its size, the rows passed as arrays and spread by unnest(). Raw views go in packs, one
// row per site, UTC day and batch (see migration 010). The views of a batch come from sites of many
// organizations, each view carrying its own org_id.
import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import type { PackedView, PageViewRollupsTable, PageViewVisitorsTable } from '../../db/schema.ts';

/** A page view as recorded: viewed_at as an ISO 8601 string (UTC). */
export interface RawView {
  org_id: string;
  project_id: string;
  path: string;
  /** Referrer host, or null for direct traffic. */
  referrer: string | null;
  device: string;
  visitor_hash: string;
  viewed_at: string;
}

/** A batch's raw views of one site and UTC day, as one page_view_packs row. */
interface Pack {
  org_id: string;
  project_id: string;
  first_viewed_at: string;
  last_viewed_at: string;
  view_count: number;
  views: string;
}

/**
 * Groups views by site and UTC day, each group a pack (views in the order given). A pack never
 * spans days, so pruning by a pack's last view keeps no view much past its retention.
 */
function packsOf(rows: RawView[]): Pack[] {
  const bySite = new Map<string, { first: RawView; views: PackedView[]; firstAt: string; lastAt: string }>();
  for (const r of rows) {
    const key = `${r.project_id} ${r.viewed_at.slice(0, 10)}`;
    const site = bySite.get(key);
    const view: PackedView = [r.path, r.referrer, r.device, r.visitor_hash, r.viewed_at];
    if (!site) bySite.set(key, { first: r, views: [view], firstAt: r.viewed_at, lastAt: r.viewed_at });
    else {
      site.views.push(view);
      if (r.viewed_at < site.firstAt) site.firstAt = r.viewed_at;
      if (r.viewed_at > site.lastAt) site.lastAt = r.viewed_at;
    }
  }
  return [...bySite.values()].map(({ first, views, firstAt, lastAt }) => ({
    org_id: first.org_id,
    project_id: first.project_id,
    first_viewed_at: firstAt,
    last_viewed_at: lastAt,
    view_count: views.length,
    views: JSON.stringify(views),
  }));
}

export type Visitor = PageViewVisitorsTable;

export type Rollup = PageViewRollupsTable;

/** The scope of an organization-wide rollup row (a project's rows have its id). */
export const ORG_SCOPE = '*';

/** Every method runs inside a transaction of the caller's (`trx`). */
export interface ViewWriter {
  /** Stores the raw views, one pack per site and UTC day. */
  insertRaw(trx: Executor, rows: RawView[]): Promise<void>;
  /** Inserts the visitors not recorded yet and returns those (the others are already counted). */
  insertVisitors(trx: Executor, rows: Visitor[]): Promise<{ project_id: string; day: string }[]>;
  /** Adds each row's views and visitors to the stored row, creating it if needed. */
  addRollups(trx: Executor, rows: Rollup[]): Promise<void>;
}

const writers = new WeakMap<Database, ViewWriter>();

export function viewWriter(database: Database): ViewWriter {
  let writer = writers.get(database);
  if (!writer) {
    writer = database.sqliteWriter ? sqliteWriter(database.sqliteWriter) : postgresWriter();
    writers.set(database, writer);
  }
  return writer;
}

function sqliteWriter(connection: SQLite.Database): ViewWriter {
  const pack = connection.prepare(
    'insert into page_view_packs (org_id, project_id, first_viewed_at, last_viewed_at, view_count, views) values (?, ?, ?, ?, ?, ?)',
  );
  const visitor = connection.prepare(
    'insert into page_view_visitors (project_id, day, visitor_hash) values (?, ?, ?) on conflict do nothing',
  );
  const rollup = connection.prepare(
    `insert into page_view_rollups (org_id, scope, dimension, day, key, views, visitors) values (?, ?, ?, ?, ?, ?, ?)
     on conflict (org_id, scope, dimension, day, key)
     do update set views = page_view_rollups.views + excluded.views, visitors = page_view_rollups.visitors + excluded.visitors`,
  );
  return {
    insertRaw: async (_trx, rows) => {
      for (const p of packsOf(rows))
        pack.run(p.org_id, p.project_id, p.first_viewed_at, p.last_viewed_at, p.view_count, p.views);
    },
    insertVisitors: async (_trx, rows) =>
      rows.filter((v) => visitor.run(v.project_id, v.day, v.visitor_hash).changes > 0),
    addRollups: async (_trx, rows) => {
      for (const r of rows) rollup.run(r.org_id, r.scope, r.dimension, r.day, r.key, r.views, r.visitors);
    },
  };
}

function postgresWriter(): ViewWriter {
  const column = <T>(rows: T[], pick: (row: T) => unknown) => rows.map(pick);
  return {
    insertRaw: async (trx, rows) => {
      if (rows.length === 0) return;
      const packs = packsOf(rows);
      await sql`insert into page_view_packs (org_id, project_id, first_viewed_at, last_viewed_at, view_count, views)
        select * from unnest(${column(packs, (p) => p.org_id)}::text[], ${column(packs, (p) => p.project_id)}::text[],
          ${column(packs, (p) => p.first_viewed_at)}::timestamptz[], ${column(packs, (p) => p.last_viewed_at)}::timestamptz[],
          ${column(packs, (p) => p.view_count)}::integer[], ${column(packs, (p) => p.views)}::text[])`.execute(
        trx,
      );
    },
    insertVisitors: async (trx, rows) => {
      if (rows.length === 0) return [];
      const result = await sql<{
        project_id: string;
        day: string;
      }>`insert into page_view_visitors (project_id, day, visitor_hash)
        select * from unnest(${column(rows, (r) => r.project_id)}::text[], ${column(rows, (r) => r.day)}::text[], ${column(rows, (r) => r.visitor_hash)}::text[])
        on conflict do nothing returning project_id, day`.execute(trx);
      return result.rows;
    },
    addRollups: async (trx, rows) => {
      if (rows.length === 0) return;
      // The rows come aggregated (no key twice), as one statement may not update a row twice.
      await sql`insert into page_view_rollups (org_id, scope, dimension, day, key, views, visitors)
        select * from unnest(${column(rows, (r) => r.org_id)}::text[], ${column(rows, (r) => r.scope)}::text[], ${column(rows, (r) => r.dimension)}::text[],
          ${column(rows, (r) => r.day)}::text[], ${column(rows, (r) => r.key)}::text[], ${column(rows, (r) => r.views)}::integer[], ${column(rows, (r) => r.visitors)}::integer[])
        on conflict (org_id, scope, dimension, day, key)
        do update set views = page_view_rollups.views + excluded.views, visitors = page_view_rollups.visitors + excluded.visitors`.execute(
        trx,
      );
    },
  };
}

/** Which of `projectIds` still exist (views of deleted sites are dropped). */
export async function liveProjectIds(db: Executor, projectIds: string[]): Promise<Set<string>> {
  return new Set(
    (await db.selectFrom('projects').select('id').where('id', 'in', projectIds).execute()).map((p) => p.id),
  );
}

/** A project's own rollup rows (scope = its id). */
export function projectRollups(trx: Executor, orgId: string, projectId: string): Promise<Rollup[]> {
  return trx
    .selectFrom('page_view_rollups')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('scope', '=', projectId)
    .execute();
}

/** Deletes a project's rollup rows and the organization-wide ones its removal brought to zero. */
export async function deleteProjectRollups(trx: Executor, orgId: string, projectId: string): Promise<void> {
  await trx
    .deleteFrom('page_view_rollups')
    .where('org_id', '=', orgId)
    .where('scope', '=', projectId)
    .execute();
  await trx
    .deleteFrom('page_view_rollups')
    .where('org_id', '=', orgId)
    .where('scope', '=', ORG_SCOPE)
    .where('views', '<=', 0)
    .where('visitors', '<=', 0)
    .execute();
}
