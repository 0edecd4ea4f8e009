// SQL of what analytics keeps, and for how long: raw views (ANALYTICS_RAW_RETENTION_DAYS), the
// visitor sets of today and yesterday, and the daily salts of today and yesterday. These tables
// serve every organization at once (a salt is the service's, a pack or visitor set a site's), so
// their statements go by time, not by organization.
import type { Executor } from '../../db/executor.ts';
import { toIso } from '../../lib/clock.ts';

const DAY_MS = 86_400_000;

const dayOf = (iso: string): string => iso.slice(0, 10);

/**
 * Deletes raw views older than `rawRetentionDays` (all of them at 0), a pack at a time by the time
 * of its last view, and the visitor sets of days before yesterday (no view can still arrive for
 * them; their salts are gone). A day at a time, so a large backlog (after the retention was
 * shortened) never holds SQLite's write lock for long.
 */
export async function pruneViews(db: Executor, now: Date, rawRetentionDays: number): Promise<void> {
  const cutoff = now.getTime() - rawRetentionDays * DAY_MS;
  for (;;) {
    const oldest = await db
      .selectFrom('page_view_packs')
      .select('last_viewed_at')
      .where('last_viewed_at', '<', new Date(cutoff).toISOString())
      .orderBy('last_viewed_at')
      .limit(1)
      .executeTakeFirst();
    if (!oldest) break;
    const until = Math.min(Date.parse(toIso(oldest.last_viewed_at)) + DAY_MS, cutoff);
    await db
      .deleteFrom('page_view_packs')
      .where('last_viewed_at', '<', new Date(until).toISOString())
      .execute();
  }
  const yesterday = dayOf(new Date(now.getTime() - DAY_MS).toISOString());
  await db.deleteFrom('page_view_visitors').where('day', '<', yesterday).execute();
}

/**
 * The salt of `day` (YYYY-MM-DD): `candidate` when this call creates it, else the one another
 * instance created first. Salts of days before `keepFrom` are deleted on the way.
 */
export async function saltOfDay(
  db: Executor,
  day: string,
  candidate: string,
  keepFrom: string,
): Promise<string> {
  await db
    .insertInto('analytics_salts')
    .values({ day, salt: candidate })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
  await db.deleteFrom('analytics_salts').where('day', '<', keepFrom).execute();
  return (
    await db.selectFrom('analytics_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow()
  ).salt;
}
