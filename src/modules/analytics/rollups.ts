// The write side of analytics: raw page views (kept ANALYTICS_RAW_RETENTION_DAYS) and the daily
// rollups every report reads. A batch of views is recorded in one transaction: raw rows, the
// visitor hashes not seen before on that site and day, and one additive upsert per rollup row.
// Visitor hashes rotate daily and include the site, so distinct visitors of a (site, day) add up
// exactly to distinct visitors of any set of sites and days.
import type { Insertable } from 'kysely';
import type { Executor } from '../../db/executor.ts';
import type { PageViewRollupsTable, PageViewsTable, RollupDimension } from '../../db/schema.ts';
import { DIRECT_REFERRER } from './schema.ts';

/** The scope of an organization-wide rollup row. */
export const ORG_SCOPE = '*';

export type PageViewRow = Insertable<PageViewsTable> & { viewed_at: string };

type Rollup = Insertable<PageViewRollupsTable>;

// Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits.
const CHUNK = 100;

export const dayOf = (iso: string): string => iso.slice(0, 10);

/** Records views (their viewed_at as ISO strings) in the caller's transaction. */
export async function recordViews(trx: Executor, views: PageViewRow[], opts: { keepRaw: boolean }): Promise<void> {
  if (views.length === 0) return;
  if (opts.keepRaw) for (const rows of chunks(views)) await trx.insertInto('page_views').values(rows).execute();

  const orgOf = new Map<string, string>();
  const seen = new Map<string, { project_id: string; day: string; visitor_hash: string }>();
  for (const v of views) {
    orgOf.set(v.project_id, v.org_id);
    const day = dayOf(v.viewed_at);
    seen.set(`${v.project_id}\u0000${day}\u0000${v.visitor_hash}`, { project_id: v.project_id, day, visitor_hash: v.visitor_hash });
  }
  const newVisitors: { project_id: string; day: string }[] = [];
  for (const rows of chunks([...seen.values()])) {
    // RETURNING with DO NOTHING yields only the rows inserted: the visitors not seen before.
    newVisitors.push(
      ...(await trx.insertInto('page_view_visitors').values(rows).onConflict((oc) => oc.doNothing()).returning(['project_id', 'day']).execute()),
    );
  }

  const rollups = new Rollups();
  for (const v of views) {
    const day = dayOf(v.viewed_at);
    for (const scope of [v.project_id, ORG_SCOPE]) {
      rollups.add(v.org_id, scope, 'all', day, '', 1, 0);
      rollups.add(v.org_id, scope, 'path', day, v.path, 1, 0);
      rollups.add(v.org_id, scope, 'referrer', day, v.referrer ?? DIRECT_REFERRER, 1, 0);
      rollups.add(v.org_id, scope, 'device', day, v.device, 1, 0);
    }
  }
  for (const { project_id, day } of newVisitors) {
    const orgId = orgOf.get(project_id)!;
    rollups.add(orgId, project_id, 'all', day, '', 0, 1);
    rollups.add(orgId, ORG_SCOPE, 'all', day, '', 0, 1);
  }
  await upsert(trx, rollups.sorted());
}

/** Takes a project's numbers out of its organization's rollups (the project is being deleted). */
export async function removeProjectRollups(trx: Executor, orgId: string, projectId: string): Promise<void> {
  const rows = await trx.selectFrom('page_view_rollups').selectAll().where('org_id', '=', orgId).where('scope', '=', projectId).execute();
  const rollups = new Rollups();
  for (const r of rows) rollups.add(orgId, ORG_SCOPE, r.dimension, r.day, r.key, -r.views, -r.visitors);
  await upsert(trx, rollups.sorted());
  await trx.deleteFrom('page_view_rollups').where('org_id', '=', orgId).where('scope', '=', projectId).execute();
  await trx.deleteFrom('page_view_rollups').where('org_id', '=', orgId).where('scope', '=', ORG_SCOPE).where('views', '<=', 0).where('visitors', '<=', 0).execute();
}

export interface PruneResult {
  rawViews: number;
  visitorDays: number;
}

/**
 * Deletes raw views older than `rawRetentionDays` (all of them at 0) and the visitor sets of days
 * before yesterday (no view can still arrive for them; their salts are gone). In small batches,
 * so a large backlog never holds SQLite's write lock for long.
 */
export async function pruneViews(db: Executor, now: Date, rawRetentionDays: number, batch = 5_000): Promise<PruneResult> {
  const cutoff = new Date(now.getTime() - rawRetentionDays * 86_400_000).toISOString();
  const yesterday = dayOf(new Date(now.getTime() - 86_400_000).toISOString());
  const result: PruneResult = { rawViews: 0, visitorDays: 0 };
  for (;;) {
    const old = db.selectFrom('page_views').select('id').where('viewed_at', '<', cutoff).limit(batch);
    const deleted = Number((await db.deleteFrom('page_views').where('id', 'in', old).executeTakeFirst()).numDeletedRows);
    result.rawViews += deleted;
    if (deleted < batch) break;
  }
  result.visitorDays = Number((await db.deleteFrom('page_view_visitors').where('day', '<', yesterday).executeTakeFirst()).numDeletedRows);
  return result;
}

class Rollups {
  private readonly rows = new Map<string, Rollup>();

  add(org_id: string, scope: string, dimension: RollupDimension, day: string, key: string, views: number, visitors: number): void {
    const id = `${org_id}\u0000${scope}\u0000${dimension}\u0000${day}\u0000${key}`;
    const row = this.rows.get(id);
    if (row) {
      row.views += views;
      row.visitors += visitors;
    } else this.rows.set(id, { org_id, scope, dimension, day, key, views, visitors });
  }

  /** In primary-key order, so concurrent writers on PostgreSQL lock rows in one order and never deadlock. */
  sorted(): Rollup[] {
    return [...this.rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  }
}

async function upsert(trx: Executor, rows: Rollup[]): Promise<void> {
  for (const part of chunks(rows)) {
    await trx
      .insertInto('page_view_rollups')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['org_id', 'scope', 'dimension', 'day', 'key']).doUpdateSet((eb) => ({
          views: eb('page_view_rollups.views', '+', eb.ref('excluded.views')),
          visitors: eb('page_view_rollups.visitors', '+', eb.ref('excluded.visitors')),
        })),
      )
      .execute();
  }
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}
