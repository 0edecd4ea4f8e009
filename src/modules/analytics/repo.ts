// Aggregate SQL over the daily rollups (see rollups.ts): a report reads at most one row per day,
// dimension and key of its scope, never raw views, so a 365-day report costs the same however
// much traffic the sites had. Every function takes the organization id in its scope: tenant scope
// is not optional.
import { sql, type RawBuilder } from 'kysely';
import type { Engine } from '../../db/engine.ts';
import { num, type Executor } from '../../db/executor.ts';
import type { RollupDimension } from '../../db/schema.ts';
import { ORG_SCOPE } from './views-repo.ts';
import { TOP_LIMIT } from './schema.ts';

export interface ViewScope {
  orgId: string;
  /** Only this project's views; it must already be known to belong to orgId. */
  projectId?: string | undefined;
  /** First and last UTC day of the window, inclusive, as YYYY-MM-DD. */
  from: string;
  to: string;
}

export interface Counted {
  key: string;
  views: number;
}

export type Dimension = Exclude<RollupDimension, 'all'>;

/** Byte order on both engines: SQLite's default BINARY collation, PostgreSQL's "C" (a database's
 *  default collation may be locale-aware and would break ties differently). */
function byteOrder(engine: Engine, expr: RawBuilder<string>): RawBuilder<string> {
  return engine === 'postgres' ? sql<string>`${expr} collate "C"` : expr;
}

function rollups(db: Executor, scope: ViewScope, dimension: RollupDimension) {
  return db
    .selectFrom('page_view_rollups')
    .where('org_id', '=', scope.orgId)
    .where('scope', '=', scope.projectId ?? ORG_SCOPE)
    .where('dimension', '=', dimension)
    .where('day', '>=', scope.from)
    .where('day', '<=', scope.to);
}

/** Views per UTC day (only days that have any; the service fills the gaps) and distinct visitors. */
export async function daily(
  db: Executor,
  scope: ViewScope,
): Promise<{ day: string; views: number; visitors: number }[]> {
  const rows = await rollups(db, scope, 'all').select(['day', 'views', 'visitors']).execute();
  return rows.map((r) => ({ day: r.day, views: num(r.views), visitors: num(r.visitors) }));
}

/** The TOP_LIMIT most viewed values of a dimension: views descending, then the value ascending. */
export async function topBy(
  db: Executor,
  engine: Engine,
  scope: ViewScope,
  dimension: Dimension,
): Promise<Counted[]> {
  const views = sql<number | string>`sum(views)`;
  const rows = await rollups(db, scope, dimension)
    .select(['key', views.as('views')])
    .groupBy('key')
    // A key whose views were all taken out with a deleted project may linger at 0.
    .having(views, '>', 0)
    .orderBy(views, 'desc')
    .orderBy(byteOrder(engine, sql<string>`key`))
    .limit(TOP_LIMIT)
    .execute();
  return rows.map((r) => ({ key: r.key, views: num(r.views) }));
}
