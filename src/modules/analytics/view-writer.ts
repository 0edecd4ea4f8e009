// The three bulk statements behind recording page views, one implementation per engine, because
// they run for every view served and Kysely's build-and-compile of a 100-row insert costs more
// than SQLite's insert itself. SQLite: statements prepared once on the writer connection, one row
// per run. PostgreSQL: one statement per batch whatever its size, the rows passed as arrays and
// spread by unnest().
import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import type { PageViewRollupsTable, PageViewVisitorsTable, PageViewsTable } from '../../db/schema.ts';

/** A page view as written: viewed_at as an ISO 8601 string (UTC). */
export type RawView = Omit<PageViewsTable, 'viewed_at'> & { viewed_at: string };

export type Visitor = PageViewVisitorsTable;

export type Rollup = PageViewRollupsTable;

/** Every method runs inside a transaction of the caller's (`trx`). */
export interface ViewWriter {
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
  const raw = connection.prepare(
    'insert into page_views (org_id, project_id, path, referrer, device, visitor_hash, viewed_at) values (?, ?, ?, ?, ?, ?, ?)',
  );
  const visitor = connection.prepare('insert into page_view_visitors (project_id, day, visitor_hash) values (?, ?, ?) on conflict do nothing');
  const rollup = connection.prepare(
    `insert into page_view_rollups (org_id, scope, dimension, day, key, views, visitors) values (?, ?, ?, ?, ?, ?, ?)
     on conflict (org_id, scope, dimension, day, key)
     do update set views = page_view_rollups.views + excluded.views, visitors = page_view_rollups.visitors + excluded.visitors`,
  );
  return {
    insertRaw: async (_trx, rows) => {
      for (const r of rows) raw.run(r.org_id, r.project_id, r.path, r.referrer, r.device, r.visitor_hash, r.viewed_at);
    },
    insertVisitors: async (_trx, rows) => rows.filter((v) => visitor.run(v.project_id, v.day, v.visitor_hash).changes > 0),
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
      await sql`insert into page_views (org_id, project_id, path, referrer, device, visitor_hash, viewed_at)
        select * from unnest(${column(rows, (r) => r.org_id)}::text[], ${column(rows, (r) => r.project_id)}::text[], ${column(rows, (r) => r.path)}::text[],
          ${column(rows, (r) => r.referrer)}::text[], ${column(rows, (r) => r.device)}::text[], ${column(rows, (r) => r.visitor_hash)}::text[],
          ${column(rows, (r) => r.viewed_at)}::timestamptz[])`.execute(trx);
    },
    insertVisitors: async (trx, rows) => {
      if (rows.length === 0) return [];
      const result = await sql<{ project_id: string; day: string }>`insert into page_view_visitors (project_id, day, visitor_hash)
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
        do update set views = page_view_rollups.views + excluded.views, visitors = page_view_rollups.visitors + excluded.visitors`.execute(trx);
    },
  };
}
