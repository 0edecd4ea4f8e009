// Page-view capture for published sites. `record()` is called after a page was sent: it never
// waits and never throws. Views are queued and written in batches off the request path (every
// ANALYTICS_FLUSH_INTERVAL, or sooner when many arrive), and flushed on shutdown. A failure to
// write is logged and the batch dropped: analytics must never cost a page.
import type { Database } from '../../db/index.ts';
import { pruneViews, recordViews, type PageViewRow } from '../../modules/analytics/rollups.ts';
import { newId } from '../../lib/ids.ts';
import { DailySalts, UserAgents, referrerHost, visitorHash } from './visitor.ts';

export interface ServedPage {
  orgId: string;
  projectId: string;
  host: string;
  /** The request URL; the query string is dropped. */
  url: string;
  method: string;
  status: number;
  contentType: string;
  referer: string | undefined;
  userAgent: string | undefined;
  ip: string;
}

export interface CaptureLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface CaptureSettings {
  flushMs: number;
  /** Days raw views are kept (0: not at all); the daily rollups are kept regardless. */
  rawRetentionDays: number;
}

interface Pending {
  page: ServedPage;
  at: Date;
}

const BATCH = 500;
/** Beyond this many views waiting, new ones are dropped (and counted) rather than eating memory. */
const MAX_QUEUED = 50_000;
const PRUNE_EVERY_MS = 3_600_000;

export class PageViewCapture {
  readonly stats = { recorded: 0, written: 0, dropped: 0, failed: 0 };
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly pruneTimer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly salts: DailySalts;
  private readonly agents = new UserAgents();

  constructor(
    private readonly database: Database,
    private readonly settings: CaptureSettings,
    private readonly logger?: CaptureLogger,
  ) {
    this.salts = new DailySalts(database);
    // Every instance prunes: the deletes are idempotent and cheap when there is nothing to do.
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS).unref();
  }

  /** Whether a served response counts as a page view (bots are left out when the batch is written). */
  static counts(page: ServedPage): boolean {
    return page.method === 'GET' && page.status === 200 && page.contentType.startsWith('text/html');
  }

  record(page: ServedPage): void {
    if (!PageViewCapture.counts(page)) return;
    if (this.queue.length >= MAX_QUEUED) {
      if (this.stats.dropped++ % 1000 === 0) this.logger?.warn({ dropped: this.stats.dropped }, 'page-view queue full: dropping views');
      return;
    }
    this.stats.recorded++;
    this.queue.push({ page, at: new Date() });
    if (this.queue.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.settings.flushMs);
  }

  /** Writes everything queued so far. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(async () => {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, BATCH);
        try {
          this.stats.written += await this.write(batch);
        } catch (error) {
          this.stats.failed += batch.length;
          this.logger?.error({ err: error, views: batch.length }, 'could not record page views; they are lost');
        }
      }
    });
    return this.flushing;
  }

  /** Deletes raw views past their retention and visitor sets of past days. */
  async prune(now = new Date()): Promise<void> {
    try {
      await pruneViews(this.database.db, now, this.settings.rawRetentionDays);
    } catch (error) {
      this.logger?.error({ err: error }, 'could not prune old page views');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.pruneTimer);
    await this.flush();
  }

  /** Writes a batch; returns how many views were written. */
  private async write(batch: Pending[]): Promise<number> {
    const rows: PageViewRow[] = [];
    for (const { page, at } of batch) {
      const ua = page.userAgent ?? '';
      const agent = this.agents.classify(ua);
      if (agent.bot) continue;
      const viewed_at = at.toISOString();
      const salt = await this.salts.salt(viewed_at.slice(0, 10));
      rows.push({
        id: newId(),
        org_id: page.orgId,
        project_id: page.projectId,
        path: (page.url.split('?')[0] ?? '/').slice(0, 500),
        referrer: referrerHost(page.referer, page.host),
        device: agent.device,
        visitor_hash: visitorHash(salt, page.projectId, page.ip, ua),
        viewed_at,
      });
    }
    const keepRaw = this.settings.rawRetentionDays > 0;
    try {
      await this.database.db.transaction().execute((trx) => recordViews(trx, rows, { keepRaw }));
      return rows.length;
    } catch (error) {
      // Usually a site deleted since its views were queued: keep the views of the others.
      const ids = [...new Set(rows.map((r) => r.project_id))];
      const live = new Set((await this.database.db.selectFrom('projects').select('id').where('id', 'in', ids).execute()).map((p) => p.id));
      const kept = rows.filter((r) => live.has(r.project_id));
      if (kept.length === rows.length) throw error;
      this.stats.failed += rows.length - kept.length;
      await this.database.db.transaction().execute((trx) => recordViews(trx, kept, { keepRaw }));
      return kept.length;
    }
  }
}
