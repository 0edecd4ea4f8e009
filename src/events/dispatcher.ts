// The webhook dispatcher: claims due deliveries, sends them with a bounded pool, records the
// results in batches. It runs inside `sitewright start` and alone as `sitewright worker`; any
// number of them may share one database (see claim.ts).
import type { Config, WebhookSettings } from '../config.ts';
import type { Database } from '../db/index.ts';
import { ClaimLoop } from '../jobs/claim-loop.ts';
import { claimDue, deliveryLeaseMs, loadJobs, type DeliveryJob } from './claim.ts';
import { expireHeldDeliveries } from './held-deliveries.ts';
import { recordResults, type Finished } from './results.ts';
import { WebhookSender } from './sender.ts';
import { onWork } from '../jobs/signal.ts';
import type { Telemetry } from '../lib/telemetry.ts';
import { tracing } from '../lib/tracing.ts';

export interface DispatcherLogger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface DispatcherOptions extends WebhookSettings {
  allowPrivate: boolean;
  logger?: DispatcherLogger;
  telemetry?: Telemetry;
}

/** How often held deliveries past their schedule are marked failed. */
const SWEEP_INTERVAL_MS = 60_000;

export class Dispatcher {
  readonly stats = { attempts: 0, succeeded: 0, failed: 0 };
  private readonly sender: WebhookSender;
  private readonly loop: ClaimLoop<DeliveryJob>;
  private readonly leaseMs: number;
  private results: Finished[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private flushQueued = false;
  private lastSweep = 0;

  constructor(
    private readonly database: Database,
    private readonly opts: DispatcherOptions,
  ) {
    this.sender = new WebhookSender({ timeoutMs: opts.timeoutMs, allowPrivate: opts.allowPrivate });
    this.leaseMs = deliveryLeaseMs(opts.timeoutMs);
    this.loop = new ClaimLoop<DeliveryJob>({
      name: 'webhook dispatcher',
      concurrency: opts.concurrency,
      pollIntervalMs: opts.pollIntervalMs,
      claim: (limit) => this.claim(limit),
      run: (job) => this.attempt(job),
      subscribe: (wake) => onWork('outbox', wake),
      logger: opts.logger,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due deliveries now rather than at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Stops claiming, lets attempts in flight finish for up to graceMs and records their results.
   * Attempts still running after that are abandoned to their lease: another dispatcher (or this
   * one after a restart) makes them again once it runs out.
   */
  async stop(graceMs = 10_000): Promise<void> {
    await this.loop.stop(graceMs);
    await this.flush();
    this.sender.close();
  }

  /** Marks failed the held deliveries that outlived their schedule; returns how many. */
  sweep(now = Date.now()): Promise<number> {
    this.lastSweep = now;
    return expireHeldDeliveries(this.database.db, this.opts.retrySchedule, { now });
  }

  private async claim(limit: number): Promise<DeliveryJob[]> {
    if (Date.now() - this.lastSweep >= SWEEP_INTERVAL_MS) await this.sweep();
    const claimed = await claimDue(this.database, {
      limit,
      endpointConcurrency: this.opts.endpointConcurrency,
      leaseMs: this.leaseMs,
    });
    return loadJobs(this.database, claimed);
  }

  private async attempt(job: DeliveryJob): Promise<void> {
    const started = performance.now();
    const result = await tracing().span(
      'webhook attempt',
      { 'sitewright.attempt': job.attemptCount + 1 },
      () => this.sender.send(job),
    );
    this.opts.telemetry?.webhookAttempt(
      result.ok ? 'succeeded' : 'failed',
      (performance.now() - started) / 1000,
    );
    this.stats.attempts++;
    if (result.ok) this.stats.succeeded++;
    else this.stats.failed++;
    this.results.push({ job, result });
    this.queueFlush();
  }

  /** Coalesces the results that finish close together into one transaction. */
  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      // A freed slot (and the released lease) may let more work go: claim after recording.
      void this.flush().then(() => this.wake());
    });
  }

  private flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const batch = this.results;
      if (batch.length === 0) return;
      this.results = [];
      try {
        await recordResults(this.database.db, batch, this.opts);
      } catch (error) {
        if (batch.length > 1) {
          // One bad row must not cost the whole batch a second send: record them one by one.
          for (const finished of batch) await this.recordOne(finished);
        } else {
          this.logRecordFailure(error, batch.length);
        }
      }
    });
    return this.flushing;
  }

  private async recordOne(finished: Finished): Promise<void> {
    try {
      await recordResults(this.database.db, [finished], this.opts);
    } catch (error) {
      this.logRecordFailure(error, 1);
    }
  }

  /** The lease will run out and the attempt be made again: a duplicate, never a loss. */
  private logRecordFailure(error: unknown, count: number): void {
    this.opts.logger?.error(
      { err: error, count },
      'webhook dispatcher: could not record attempt results; they will be retried',
    );
  }
}

/** The dispatcher as configured by the environment. */
export function createDispatcher(
  database: Database,
  config: Config,
  logger?: DispatcherLogger,
  telemetry?: Telemetry,
): Dispatcher {
  return new Dispatcher(database, {
    ...config.webhooks,
    allowPrivate: config.webhooksAllowPrivate,
    ...(logger ? { logger } : {}),
    ...(telemetry ? { telemetry } : {}),
  });
}
