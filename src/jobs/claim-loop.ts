// The durable-job loop shared by every background worker (webhook deliveries, AI generations):
// claim due work from the database with a lease, run it in a bounded pool, claim again as soon as
// a slot frees or a local signal says there is new work, and poll otherwise. The database is the
// truth; a process that dies leaves its leases to run out and another one takes the work over.

export interface ClaimLoopLogger {
  error(obj: object, msg?: string): void;
}

export interface ClaimLoopOptions<Job> {
  /** Used in log lines. */
  name: string;
  /** Jobs run at once by this process. */
  concurrency: number;
  pollIntervalMs: number;
  /** Leases up to `limit` due jobs and returns them. */
  claim(limit: number): Promise<Job[]>;
  /** Runs one claimed job. It records its own outcome; a rejection is only logged. */
  run(job: Job): Promise<void>;
  /** Subscribes to a process-local "new work" hint; returns the unsubscribe function. */
  subscribe?(wake: () => void): () => void;
  logger?: ClaimLoopLogger | undefined;
}

export class ClaimLoop<Job> {
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private claiming = false;
  private again = false;
  private currentTick: Promise<void> = Promise.resolve();
  private pollTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly opts: ClaimLoopOptions<Job>) {}

  get activeJobs(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.opts.subscribe?.(() => this.wake());
    this.wake();
  }

  /** Looks for due work now rather than at the next poll. */
  wake(): void {
    if (!this.running) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.currentTick = this.tick();
  }

  /**
   * Stops claiming and waits up to graceMs for the jobs in flight. Jobs still running after that
   * are abandoned to their lease: another worker (or this one after a restart) takes them over.
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.running = false;
    clearTimeout(this.pollTimer);
    this.unsubscribe?.();
    // A claim under way still launches what it leased; wait for it so those jobs are waited for too.
    await this.currentTick;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
  }

  private async tick(): Promise<void> {
    this.claiming = true;
    clearTimeout(this.pollTimer);
    try {
      do {
        this.again = false;
        const free = this.opts.concurrency - this.inFlight.size;
        if (free <= 0 || !this.running) break;
        const jobs = await this.opts.claim(free);
        for (const job of jobs) this.launch(job);
        // A full batch suggests more is due; look again at once.
        if (jobs.length > 0 && jobs.length === free) this.again = true;
      } while (this.again && this.running);
    } catch (error) {
      this.opts.logger?.error(
        { err: error },
        `${this.opts.name}: claiming failed; retrying at the next poll`,
      );
    } finally {
      this.claiming = false;
      if (this.running) this.pollTimer = setTimeout(() => this.wake(), this.opts.pollIntervalMs);
    }
  }

  private launch(job: Job): void {
    const running = this.opts.run(job).catch((error: unknown) => {
      this.opts.logger?.error(
        { err: error },
        `${this.opts.name}: a job failed unexpectedly; its lease will run out and it is tried again`,
      );
    });
    this.inFlight.add(running);
    void running.finally(() => {
      this.inFlight.delete(running);
    });
  }
}
