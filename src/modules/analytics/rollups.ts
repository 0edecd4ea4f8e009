// The write side of analytics: raw page views (kept ANALYTICS_RAW_RETENTION_DAYS) and the daily
// rollups every report reads. A batch of views is recorded in one transaction: raw rows, the
// visitor hashes not seen before on that site and day, and one additive upsert per rollup row
// (the statements are in views-repo.ts).
// Visitor hashes rotate daily and include the site, so distinct visitors of a (site, day) add up
// exactly to distinct visitors of any set of sites and days.
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import type { RollupDimension } from '../../db/schema.ts';
import { DIRECT_REFERRER } from './schema.ts';
import {
  deleteProjectRollups,
  ORG_SCOPE,
  projectRollups,
  viewWriter,
  type RawView,
  type Rollup,
  type Visitor,
} from './views-repo.ts';

export type { RawView } from './views-repo.ts';

const dayOf = (iso: string): string => iso.slice(0, 10);

/** Records a batch of views in one transaction of its own. */
export async function recordViews(
  database: Database,
  views: RawView[],
  opts: { keepRaw: boolean },
): Promise<void> {
  if (views.length === 0) return;
  // Views that differ only in their visitor are rolled up alike: count them once per kind first.
  const kinds = new Tally<{ view: RawView; day: string; views: number }>();
  // A hash includes the site and the day's salt: alone, it names one visitor of one site on one day.
  const visitors = new Map<string, Visitor>();
  const orgOf = new Map<string, string>();
  for (const v of views) {
    const day = dayOf(v.viewed_at);
    kinds.get([v.project_id, day, v.path, v.referrer ?? '', v.device], () => ({ view: v, day, views: 0 }))
      .views++;
    if (!visitors.has(v.visitor_hash))
      visitors.set(v.visitor_hash, { project_id: v.project_id, day, visitor_hash: v.visitor_hash });
    orgOf.set(v.project_id, v.org_id);
  }
  const writer = viewWriter(database);
  await database.transaction(async (trx) => {
    if (opts.keepRaw) await writer.insertRaw(trx, views);
    const newVisitors = await writer.insertVisitors(trx, [...visitors.values()]);
    const rollups = new Rollups();
    for (const { view, day, views: n } of kinds.leaves) {
      for (const scope of [view.project_id, ORG_SCOPE]) {
        rollups.add(view.org_id, scope, 'all', day, '', n, 0);
        rollups.add(view.org_id, scope, 'path', day, view.path, n, 0);
        rollups.add(view.org_id, scope, 'referrer', day, view.referrer ?? DIRECT_REFERRER, n, 0);
        rollups.add(view.org_id, scope, 'device', day, view.device, n, 0);
      }
    }
    for (const { project_id, day } of newVisitors) {
      const orgId = orgOf.get(project_id)!;
      rollups.add(orgId, project_id, 'all', day, '', 0, 1);
      rollups.add(orgId, ORG_SCOPE, 'all', day, '', 0, 1);
    }
    await writer.addRollups(trx, rollups.sorted());
  });
}

/**
 * Takes a project's numbers out of its organization's rollups (the project is being deleted).
 * `trx` must be a transaction of `database`'s.
 */
export async function removeProjectRollups(
  database: Database,
  trx: Executor,
  orgId: string,
  projectId: string,
): Promise<void> {
  const rows = await projectRollups(trx, orgId, projectId);
  const rollups = new Rollups();
  for (const r of rows) rollups.add(orgId, ORG_SCOPE, r.dimension, r.day, r.key, -r.views, -r.visitors);
  await viewWriter(database).addRollups(trx, rollups.sorted());
  await deleteProjectRollups(trx, orgId, projectId);
}

/**
 * Counts by a list of keys in nested maps: each key is looked up as the string it already is
 * (its hash computed once), where one concatenated key would be a new string to build and hash
 * for every view.
 */
class Tally<T> {
  private readonly root = new Map<string, unknown>();
  readonly leaves: T[] = [];

  get(keys: string[], create: () => T): T {
    let node = this.root;
    for (let i = 0; i < keys.length - 1; i++) {
      let next = node.get(keys[i]!) as Map<string, unknown> | undefined;
      if (!next) node.set(keys[i]!, (next = new Map()));
      node = next;
    }
    const last = keys[keys.length - 1]!;
    let leaf = node.get(last) as T | undefined;
    if (leaf === undefined) {
      leaf = create();
      node.set(last, leaf);
      this.leaves.push(leaf);
    }
    return leaf;
  }
}

class Rollups {
  private readonly rows = new Map<string, Rollup>();

  add(
    org_id: string,
    scope: string,
    dimension: RollupDimension,
    day: string,
    key: string,
    views: number,
    visitors: number,
  ): void {
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
