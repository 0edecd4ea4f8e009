// Page-view capture for published sites. `record()` is called after a page was sent: it never
// waits and never throws, and costs the request a push onto a queue. Every
// ANALYTICS_FLUSH_INTERVAL (or sooner when many arrive) the queue goes to a writer thread that
// records it (writer-thread.ts, recorder.ts), so parsing, hashing and SQL stay off the event loop
// that serves the sites. The queue is flushed on shutdown. A failure to write is logged and the
// batch dropped: analytics must never cost a page.
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../lib/threads.ts';
import type { DatabaseOptions } from '../../db/index.ts';
import { PAGE_FIELDS, type QueuedPages, type ServedPage } from './recorder.ts';

export type { ServedPage } from './recorder.ts';

export interface CaptureLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface CaptureSettings {
  /** The writer thread opens its own connection with these (the database is already migrated). */
  database: DatabaseOptions;
  flushMs: number;
  /** Days raw views are kept (0: not at all); the daily rollups are kept regardless. */
  rawRetentionDays: number;
}

const BATCH = 1_000;
/** Beyond this many views waiting, new ones are dropped (and counted) rather than eating memory. */
const MAX_QUEUED = 100_000;
const PRUNE_EVERY_MS = 3_600_000;

export class PageViewCapture {
  /** recorded: queued; written: stored; dropped: not stored (queue full, or the site deleted); failed: lost to an error. */
  readonly stats = { recorded: 0, written: 0, dropped: 0, failed: 0 };
  /** Queued pages, PAGE_FIELDS values each in ServedPage order (see recorder.ts): what the writer thread is handed. */
  private queue: QueuedPages = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly pruneTimer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private nextFlush: Promise<void> | undefined;
  private drain = false;
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private lastId = 0;

  constructor(
    private readonly settings: CaptureSettings,
    private readonly logger?: CaptureLogger,
  ) {
    // Every instance prunes: the deletes are idempotent and cheap when there is nothing to do.
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS).unref();
  }

  /** Queues a page view: an HTML page answered 200 to a GET (the caller checks); bots are left out by the writer. */
  record(page: ServedPage): void {
    if (this.queued >= MAX_QUEUED) {
      if (this.stats.dropped++ % 1000 === 0)
        this.logger?.warn({ dropped: this.stats.dropped }, 'page-view queue full: dropping views');
      return;
    }
    this.stats.recorded++;
    this.queue.push(
      page.orgId,
      page.projectId,
      page.host,
      page.url,
      page.referer,
      page.userAgent,
      page.ip,
      page.at,
    );
    if (this.queued >= BATCH) void this.schedule();
    else this.timer ??= setTimeout(() => void this.flush(), this.settings.flushMs);
  }

  /** How many views wait in the queue. */
  private get queued(): number {
    return this.queue.length / PAGE_FIELDS;
  }

  /** Writes everything queued so far; resolves once it is stored (or has failed and been logged). */
  flush(): Promise<void> {
    this.drain = true;
    return this.schedule();
  }

  /**
   * Queues one write-out behind the running one. Under load it writes whole batches only and
   * leaves the rest to the timer: taking whatever arrived during the last write would shrink
   * batches to a few views, each paying a whole transaction (an fsync on SQLite).
   */
  private schedule(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.nextFlush) return this.nextFlush;
    this.nextFlush = this.flushing = this.flushing.then(async () => {
      this.nextFlush = undefined;
      const drain = this.drain;
      this.drain = false;
      while (this.queued >= (drain ? 1 : BATCH)) {
        const views = Math.min(this.queued, BATCH);
        const batch = this.queue.splice(0, views * PAGE_FIELDS);
        try {
          const { written, dropped } = (await this.call({ write: batch })) as {
            written: number;
            dropped: number;
          };
          this.stats.written += written;
          this.stats.dropped += dropped;
        } catch (error) {
          this.stats.failed += views;
          this.logger?.error({ err: error, views }, 'could not record page views; they are lost');
        }
      }
      if (this.queued > 0) this.timer ??= setTimeout(() => void this.flush(), this.settings.flushMs);
    });
    return this.nextFlush;
  }

  /** Deletes raw views past their retention and visitor sets of past days. */
  async prune(now = new Date()): Promise<void> {
    try {
      await this.call({ prune: now.getTime() });
    } catch (error) {
      this.logger?.error({ err: error }, 'could not prune old page views');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.pruneTimer);
    await this.flush();
    const worker = this.worker;
    if (!worker) return;
    await this.call({ close: true }).catch(() => {});
    this.worker = undefined;
    await worker.terminate();
  }

  private call(request: object): Promise<unknown> {
    const worker = this.worker ?? this.startWorker();
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...request });
    });
  }

  /** Started on first use (a page view, or the hourly prune), and again if it died. */
  private startWorker(): Worker {
    const { database, rawRetentionDays } = this.settings;
    const workerData = { database, rawRetentionDays };
    // The server runs the compiled writer-thread.js beside this file in dist/. The tests run the
    // TypeScript sources (this file is then capture.ts): there the thread runs writer-thread.ts.
    const worker = startThread(import.meta.url, 'writer-thread', { workerData });
    worker.unref();
    worker.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
      const call = this.waiting.get(id);
      this.waiting.delete(id);
      if (error !== undefined) call?.reject(new Error(error));
      else call?.resolve(result);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const call of this.waiting.values()) call.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the page-view writer thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}
