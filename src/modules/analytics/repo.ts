// Aggregate SQL over page_views. Every function takes the organization id in its scope: tenant
// scope is not optional. Where the engines differ (day bucketing, string ordering) the fragment
// is chosen by engine; everything else is the same query on SQLite and PostgreSQL.
//
// These functions read raw rows. Daily rollups (issue 6) can replace them behind the same
// signatures without touching the service.
import { sql, type RawBuilder } from 'kysely';
import type { Engine } from '../../db/engine.ts';
import { num, type Executor } from '../../db/executor.ts';
import { DIRECT_REFERRER, TOP_LIMIT } from './schema.ts';

export interface ViewScope {
  orgId: string;
  /** Only this project's views; it must already be known to belong to orgId. */
  projectId?: string | undefined;
  /** Inclusive bounds as ISO strings: text comparison on SQLite (all rows are written by
   *  toISOString(), so text order is time order), timestamptz comparison on PostgreSQL. */
  from: string;
  to: string;
}

export interface Counted {
  key: string;
  views: number;
}

export type Dimension = 'path' | 'referrer' | 'device';

// Literals, not parameters: PostgreSQL matches GROUP BY and SELECT expressions by their text,
// and two separately bound parameters would make them differ.
const DIMENSIONS: Record<Dimension, RawBuilder<string>> = {
  path: sql<string>`path`,
  referrer: sql<string>`coalesce(referrer, ${sql.lit(DIRECT_REFERRER)})`,
  device: sql<string>`device`,
};

/** Byte order on both engines: SQLite's default BINARY collation, PostgreSQL's "C" (a database's
 *  default collation may be locale-aware and would break ties differently). */
function byteOrder(engine: Engine, expr: RawBuilder<string>): RawBuilder<string> {
  return engine === 'postgres' ? sql<string>`${expr} collate "C"` : expr;
}

/** The UTC calendar day of viewed_at as YYYY-MM-DD. */
function dayOf(engine: Engine): RawBuilder<string> {
  return engine === 'postgres' ? sql<string>`to_char(viewed_at at time zone 'UTC', 'YYYY-MM-DD')` : sql<string>`substr(viewed_at, 1, 10)`;
}

function views(db: Executor, scope: ViewScope) {
  let query = db
    .selectFrom('page_views')
    .where('org_id', '=', scope.orgId)
    .where('viewed_at', '>=', scope.from)
    .where('viewed_at', '<=', scope.to);
  if (scope.projectId !== undefined) query = query.where('project_id', '=', scope.projectId);
  return query;
}

export async function projectExists(db: Executor, orgId: string, projectId: string): Promise<boolean> {
  const row = await db.selectFrom('projects').select('id').where('org_id', '=', orgId).where('id', '=', projectId).executeTakeFirst();
  return row !== undefined;
}

export async function totals(db: Executor, scope: ViewScope): Promise<{ views: number; visitors: number }> {
  const row = await views(db, scope)
    .select((eb) => [eb.fn.countAll<number | string>().as('views'), eb.fn.count<number | string>('visitor_hash').distinct().as('visitors')])
    .executeTakeFirstOrThrow();
  return { views: num(row.views), visitors: num(row.visitors) };
}

/** The TOP_LIMIT most viewed values of a dimension: views descending, then the value ascending. */
export async function topBy(db: Executor, engine: Engine, scope: ViewScope, dimension: Dimension): Promise<Counted[]> {
  const key = DIMENSIONS[dimension];
  const rows = await views(db, scope)
    .select([key.as('key'), sql<number | string>`count(*)`.as('views')])
    .groupBy(key)
    .orderBy(sql`count(*)`, 'desc')
    .orderBy(byteOrder(engine, key))
    .limit(TOP_LIMIT)
    .execute();
  return rows.map((r) => ({ key: r.key, views: num(r.views) }));
}

/** Views per UTC day, only for days that have any (the service fills the gaps). */
export async function viewsByDay(db: Executor, engine: Engine, scope: ViewScope): Promise<Counted[]> {
  const day = dayOf(engine);
  const rows = await views(db, scope)
    .select([day.as('key'), sql<number | string>`count(*)`.as('views')])
    .groupBy(day)
    .execute();
  return rows.map((r) => ({ key: r.key, views: num(r.views) }));
}
