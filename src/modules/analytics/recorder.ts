// Turns served pages into recorded views: bots left out, the visitor reduced to a hash of the
// day, the referrer to its host, the User-Agent to a device class; then one transaction per
// batch (see modules/analytics/rollups.ts).
import type { Database } from '../../db/index.ts';
import { pruneViews } from './retention-repo.ts';
import { recordViews, type RawView } from './rollups.ts';
import { DailySalts, Referrers, VisitorHashes, userAgents } from './visitor.ts';
import { liveProjectIds } from './views-repo.ts';

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

/** Served pages queued flat: PAGE_FIELDS values per page, in ServedPage's order. */
export type QueuedPages = (string | number | undefined)[];

/** ISO 8601 times of milliseconds, the date part formatted once per second rather than per view. */
export class IsoTimes {
  private second = NaN;
  private prefix = '';

  of(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.second) {
      this.second = second;
      this.prefix = new Date(second * 1000).toISOString().slice(0, 20);
    }
    return `${this.prefix}${String(ms - second * 1000).padStart(3, '0')}Z`;
  }
}

export class ViewRecorder {
  private readonly salts: DailySalts;
  private readonly agents = userAgents();
  private readonly referrers = new Referrers();
  private readonly hashes = new VisitorHashes();
  private readonly times = new IsoTimes();

  constructor(
    private readonly database: Database,
    private readonly rawRetentionDays: number,
  ) {
    this.salts = new DailySalts(database);
  }

  /**
   * Records a batch, read straight from the queue's flat fields (no object per page); views of
   * sites deleted meanwhile are dropped, the others kept.
   */
  async write(pages: QueuedPages): Promise<{ written: number; dropped: number }> {
    const rows: RawView[] = [];
    let day = '';
    let salt = '';
    for (let i = 0; i < pages.length; i += PAGE_FIELDS) {
      const ua = (pages[i + 5] as string | undefined) ?? '';
      const agent = this.agents(ua);
      if (agent.bot) continue;
      const projectId = pages[i + 1] as string;
      const url = pages[i + 3] as string;
      const referer = pages[i + 4] as string | undefined;
      const viewed_at = this.times.of(pages[i + 7] as number);
      const today = viewed_at.slice(0, 10);
      if (today !== day) {
        day = today;
        salt = await this.salts.salt(day);
      }
      const query = url.indexOf('?');
      rows.push({
        org_id: pages[i] as string,
        project_id: projectId,
        path: (query < 0 ? url : url.slice(0, query)).slice(0, 500),
        referrer: referer ? this.referrers.get(referer, pages[i + 2] as string) : null,
        device: agent.device,
        visitor_hash: this.hashes.hash(day, salt, projectId, pages[i + 6] as string, ua),
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
      const live = await liveProjectIds(this.database.db, ids);
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
