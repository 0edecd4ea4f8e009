// Seeds the rows analytics reads, straight into the database: a client and a project per site
// (every NOT NULL column of projects, without the projects module) and page views, recorded
// through the same write path as captured views.
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/index.ts';
import type { DB, PackedView } from '../../src/db/schema.ts';
import { newId } from '../../src/lib/ids.ts';
import { recordViews, type RawView } from '../../src/modules/analytics/rollups.ts';

export async function seedProject(db: Kysely<DB>, orgId: string, name = 'Site'): Promise<string> {
  const now = new Date().toISOString();
  const clientId = newId();
  const userId = newId();
  await db
    .insertInto('clients')
    .values({
      id: clientId,
      org_id: orgId,
      user_id: userId,
      email: `${clientId}@example.com`,
      email_lower: `${clientId}@example.com`,
      name: null,
      company: null,
      status: 'active',
      plan_id: null,
      payment_status: 'none',
      created_at: now,
      updated_at: now,
    })
    .execute();
  const id = newId();
  await db
    .insertInto('projects')
    .values({
      id,
      org_id: orgId,
      user_id: userId,
      org_client_id: clientId,
      name,
      name_lower: name.toLowerCase(),
      status: 'active',
      tags: '[]',
      starred: false,
      is_public: false,
      subdomain: `site-${id}`,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export interface View {
  /** ISO timestamp of the view. */
  at: string;
  path?: string;
  /** Referrer host; null (the default) is direct traffic. */
  referrer?: string | null;
  device?: string;
  /** The visitor hash; by default a new one per view. Real hashes never repeat across days. */
  visitor?: string;
}

/** Records views the way capture does (raw rows and daily rollups), without serving pages. */
export async function seedViews(
  database: Database,
  orgId: string,
  projectId: string,
  views: View[],
  opts = { keepRaw: true },
): Promise<void> {
  const rows = views.map((v) => ({
    org_id: orgId,
    project_id: projectId,
    path: v.path ?? '/',
    referrer: v.referrer ?? null,
    device: v.device ?? 'desktop',
    visitor_hash: v.visitor ?? newId(),
    viewed_at: v.at,
  }));
  await recordViews(database, rows, opts);
}

/** `n` views at one moment, all sharing the other fields given. */
export const times = (n: number, view: View): View[] => Array.from({ length: n }, () => ({ ...view }));

/** The raw views still kept (page_view_packs), unpacked, oldest pack first. */
export async function rawViews(
  db: Kysely<DB>,
  filter: { orgId: string; projectId?: string },
): Promise<RawView[]> {
  const packs = await db
    .selectFrom('page_view_packs')
    .select(['org_id', 'project_id', 'views'])
    .where('org_id', '=', filter.orgId)
    .$if(filter.projectId !== undefined, (qb) => qb.where('project_id', '=', filter.projectId!))
    .orderBy('first_viewed_at')
    .execute();
  return packs.flatMap((p) =>
    (JSON.parse(p.views) as PackedView[]).map(([path, referrer, device, visitor_hash, viewed_at]) => ({
      org_id: p.org_id,
      project_id: p.project_id,
      path,
      referrer,
      device,
      visitor_hash,
      viewed_at,
    })),
  );
}
