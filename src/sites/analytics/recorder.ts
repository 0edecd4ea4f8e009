// Turns served pages into recorded views: bots left out, the visitor reduced to a hash of the
// day, the referrer to its host, the User-Agent to a device class; then one transaction per
// batch (see modules/analytics/rollups.ts).
import type { Database } from '../../db/index.ts';
import { pruneViews, recordViews, type RawView } from '../../modules/analytics/rollups.ts';
import { DailySalts, Referrers, VisitorHashes, userAgents } from './visitor.ts';

/** A page answered by a published site, as the request path hands it over. */
export interface ServedPage {
  orgId: string;
  projectId: string;
  host: string;
  /** The request URL; the query string is dropped. */
  url: string;
  referer: string | undefined;
  userAgent: string | undefined;
  ip: string;
  /** When it was served (ms since the epoch). */
  at: number;
}

/** Fields of a page as queued flat, in ServedPage's order (capture.ts): far cheaper to hand to another thread than objects. */
export const PAGE_FIELDS = 8;

export function unpackPages(flat: (string | number | undefined)[]): ServedPage[] {
  const pages: ServedPage[] = [];
  for (let i = 0; i < flat.length; i += PAGE_FIELDS) {
    pages.push({
      orgId: flat[i] as string,
      projectId: flat[i + 1] as string,
      host: flat[i + 2] as string,
      url: flat[i + 3] as string,
      referer: flat[i + 4] as string | undefined,
      userAgent: flat[i + 5] as string | undefined,
      ip: flat[i + 6] as string,
      at: flat[i + 7] as number,
    });
  }
  return pages;
}

export class ViewRecorder {
  private readonly salts: DailySalts;
  private readonly agents = userAgents();
  private readonly referrers = new Referrers();
  private readonly hashes = new VisitorHashes();

  constructor(
    private readonly database: Database,
    private readonly rawRetentionDays: number,
  ) {
    this.salts = new DailySalts(database);
  }

  /** Records a batch; views of sites deleted meanwhile are dropped, the others kept. */
  async write(batch: ServedPage[]): Promise<{ written: number; dropped: number }> {
    const rows: RawView[] = [];
    let day = '';
    let salt = '';
    for (const page of batch) {
      const ua = page.userAgent ?? '';
      const agent = this.agents.get(ua);
      if (agent.bot) continue;
      const viewed_at = new Date(page.at).toISOString();
      if (viewed_at.slice(0, 10) !== day) {
        day = viewed_at.slice(0, 10);
        salt = await this.salts.salt(day);
      }
      rows.push({
        org_id: page.orgId,
        project_id: page.projectId,
        path: (page.url.split('?')[0] ?? '/').slice(0, 500),
        referrer: page.referer ? this.referrers.get(page.referer, page.host) : null,
        device: agent.device,
        visitor_hash: this.hashes.hash(day, salt, page.projectId, page.ip, ua),
        viewed_at,
      });
    }
    const keepRaw = this.rawRetentionDays > 0;
    try {
      await recordViews(this.database, rows, { keepRaw });
      return { written: rows.length, dropped: 0 };
    } catch (error) {
      // Usually a site deleted since its views were queued: keep the views of the others.
      const ids = [...new Set(rows.map((r) => r.project_id))];
      const live = new Set((await this.database.db.selectFrom('projects').select('id').where('id', 'in', ids).execute()).map((p) => p.id));
      const kept = rows.filter((r) => live.has(r.project_id));
      if (kept.length === rows.length) throw error;
      await recordViews(this.database, kept, { keepRaw });
      return { written: kept.length, dropped: rows.length - kept.length };
    }
  }

  prune(now: Date): Promise<void> {
    return pruneViews(this.database.db, now, this.rawRetentionDays);
  }
}
