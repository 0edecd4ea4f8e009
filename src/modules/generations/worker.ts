// Carries out queued AI generations. Jobs are leased from the generations table with the same
// claim loop as webhook deliveries (src/jobs/): any number of workers may share one database, a
// job whose process died is taken over when its lease runs out, and a retryable failure (a model
// timeout, 429 or 5xx) is tried again on GENERATION_RETRY_SCHEDULE. On success the new files
// replace the project's files in the same transaction that marks the generation succeeded, laid
// over what was written meanwhile (lay-over.ts).
import { noTelemetry, type Telemetry } from '../../lib/telemetry.ts';
import { tracing } from '../../lib/tracing.ts';
import { systemPrincipal } from '../access/principal.ts';
import type { FileLimits, GenerationSettings } from '../settings.ts';
import type { Database } from '../../db/index.ts';
import { ClaimLoop, type ClaimLoopLogger } from '../../jobs/claim-loop.ts';
import { DomainError } from '../common/errors.ts';
import { readProjectFiles } from '../files/repo.ts';
import { ContentWriter } from '../content/writer.ts';
import type { SiteFile } from '../files/rules.ts';
import { layOver } from './lay-over.ts';
import { requireProject } from '../projects/repo.ts';
import { GenerationError, type ElementContext, type ModelSource, type ProgressStep } from './provider.ts';
import { appendEvent, recordEvent as recordProgress } from './progress.ts';
import type { Updateable } from 'kysely';
import type { GenerationsTable } from '../../db/schema.ts';
import { onStop, onWork } from '../../jobs/signal.ts';
import * as repo from './repo.ts';
import { toIso } from '../../lib/clock.ts';

/** The lease outlives the job's timeout by this much, so a live worker's lease never runs out under it. */
const LEASE_MARGIN_MS = 30_000;

interface Job {
  id: string;
  orgId: string;
  projectId: string;
  prompt: string;
  element: ElementContext | undefined;
  model: string;
  attempts: number;
  token: string;
  author: { userId: string | null; keyId: string | null };
  /** The client whose AI message the request counted, and the UTC day it counted on. */
  counted: { clientId: string; day: string } | null;
}

class LostLease extends Error {}
class Cancelled extends Error {}

/**
 * A cancel made in this process stops its job at once (jobs/signal.ts). A cancel made in another
 * process (a `sitewright worker` beside the server) is found at the job's next progress step, whose
 * write needs the lease the cancel took away, or by this look at its status, whichever comes first.
 */
const OTHER_PROCESS_CANCEL_MS = 2_000;

export class GenerationWorker {
  private readonly loop: ClaimLoop<Job>;
  private readonly writer: ContentWriter;

  constructor(
    private readonly database: Database,
    private readonly models: ModelSource,
    private readonly config: { generation: GenerationSettings; files: FileLimits },
    private readonly logger?: ClaimLoopLogger,
    private readonly telemetry: Telemetry = noTelemetry,
  ) {
    this.writer = new ContentWriter(database, config.files);
    this.loop = new ClaimLoop<Job>({
      name: 'generation worker',
      concurrency: this.settings.concurrency,
      pollIntervalMs: this.settings.pollIntervalMs,
      claim: (limit) => this.claim(limit),
      run: (job) => this.timed(job),
      subscribe: (wake) => onWork('generations', wake),
      logger,
    });
  }

  private get settings(): GenerationSettings {
    return this.config.generation;
  }

  start(): void {
    this.loop.start();
  }

  stop(graceMs?: number): Promise<void> {
    return this.loop.stop(graceMs);
  }

  private async claim(limit: number): Promise<Job[]> {
    const leased = await repo.leaseDueGenerations(
      this.database,
      limit,
      this.settings.timeoutMs + LEASE_MARGIN_MS,
    );
    if (leased.ids.length === 0) return [];
    const rows = await repo.findLeased(this.database.db, leased.ids, leased.token);
    return rows.map((r) => ({
      id: r.id,
      orgId: r.org_id,
      projectId: r.project_id,
      prompt: r.prompt,
      element: r.element === null ? undefined : (JSON.parse(r.element) as ElementContext),
      model: r.model,
      attempts: r.attempts,
      token: leased.token,
      author: { userId: r.author_user_id, keyId: r.author_key_id },
      counted: r.org_client_id ? { clientId: r.org_client_id, day: toIso(r.created_at).slice(0, 10) } : null,
    }));
  }

  /** Runs the job and reports how long it took and the state it left the generation in. */
  private async timed(job: Job): Promise<void> {
    const started = performance.now();
    try {
      await tracing().span(
        'generation job',
        { 'sitewright.model': job.model, 'sitewright.attempt': job.attempts },
        () => this.run(job),
      );
    } finally {
      const status = await repo.generationStatus(this.database.db, job.id).catch(() => undefined);
      this.telemetry.generationRun(status ?? 'unknown', (performance.now() - started) / 1000);
    }
  }

  private async run(job: Job): Promise<void> {
    await repo.updateLeased(
      this.database.db,
      job.id,
      job.token,
      { started_at: new Date().toISOString() },
      { onlyIfNotStarted: true },
    );
    // Tries are counted when leased; more than the schedule allows means crashes took the others.
    if (job.attempts > this.settings.retrySchedule.length) {
      return this.fail(
        job,
        'The generation was interrupted too many times (its worker stopped while running it)',
      );
    }
    const provider = (await this.models.choiceFor(job.orgId)).providerFor(job.model);
    if (!provider) return this.fail(job, `Model '${job.model}' is no longer configured`);

    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new GenerationError(`The generation took longer than GENERATION_TIMEOUT`, true)),
      this.settings.timeoutMs,
    );
    const stopped = () => abort.abort(new Cancelled());
    const unsubscribe = onStop(job.id, stopped);
    const watch = setInterval(() => {
      void repo.generationStatus(this.database.db, job.id).then(
        (status) => status !== 'running' && status !== 'queued' && stopped(),
        () => {},
      );
    }, OTHER_PROCESS_CANCEL_MS);
    // Steps are written one after another, in the order the provider reports them.
    let steps = Promise.resolve();
    const onProgress = (step: ProgressStep) => {
      steps = steps
        .then(async () => {
          if (!(await this.event(job, 'step', step.message, step.path))) stopped();
        })
        .catch(() => {});
    };
    try {
      const running = job.attempts > 1 ? `Running again (try ${job.attempts})` : `Running (${job.model})`;
      if (!(await this.event(job, 'running', running))) stopped();
      const files = await readProjectFiles(this.database.db, job.orgId, job.projectId);
      const project = await requireProject(this.database.db, job.orgId, job.projectId);
      const result = await provider.generate({
        prompt: job.prompt,
        element: job.element,
        model: job.model,
        files,
        projectName: project.name,
        signal: abort.signal,
        onProgress,
      });
      await steps;
      if (abort.signal.aborted) throw abort.signal.reason;
      await this.succeed(job, files, result.files, result.summary);
    } catch (error) {
      await steps;
      await this.failed(job, abort.signal.reason instanceof Cancelled ? abort.signal.reason : error);
    } finally {
      clearTimeout(timer);
      clearInterval(watch);
      unsubscribe();
    }
  }

  /** Records a progress event of the job; false (nothing written) once another worker or a cancel took it. */
  private event(job: Job, kind: 'running' | 'step', message: string, path?: string): Promise<boolean> {
    return recordProgress(
      this.database,
      { generationId: job.id, orgId: job.orgId, kind, message, path: path ?? null },
      job.token,
    );
  }

  /** Lays the result (made from `base`, the files read at the start) over the files as they are now. */
  private async succeed(job: Job, base: SiteFile[], result: SiteFile[], summary: string): Promise<void> {
    const now = new Date().toISOString();
    // Under the project's lock, as every write of its files, so a file written through the API
    // meanwhile is never half-replaced; and laid over them, so it is not lost (lay-over.ts).
    await this.writer.change(systemPrincipal(job.orgId), job.projectId, {
      write: async (working) => {
        const laid = layOver(base, result, await working.all());
        if (laid.replaced.length > 0) summary = `${summary} (${replacedNote(laid.replaced)})`;
        return working.replaceAll(laid.files);
      },
      version: () => ({ source: 'generation', generationId: job.id, summary, actor: job.author }),
      finish: async (trx, checked, version) => {
        // The site is as it was: the request did nothing, and is not counted.
        if (!version) {
          summary = `${summary} (nothing changed${job.counted ? ', so this message was not counted' : ''})`;
          if (job.counted) await repo.uncountMessage(trx, job.counted.clientId, job.counted.day);
        }
        const written = [...checked.keys()].sort();
        const stillOurs = await repo.updateLeased(trx, job.id, job.token, {
          status: 'succeeded',
          summary,
          files: JSON.stringify(written),
          error: null,
          next_attempt_at: null,
          lease_until: null,
          lease_token: null,
          finished_at: now,
          updated_at: now,
        });
        // Another worker took the job over (this one outlived its lease), or it was cancelled: its
        // result counts, not ours, and the files written above are rolled back.
        if (!stillOurs) throw new LostLease();
        await appendEvent(trx, {
          generationId: job.id,
          orgId: job.orgId,
          kind: 'succeeded',
          message: summary,
        });
      },
    });
  }

  private async failed(job: Job, error: unknown): Promise<void> {
    if (error instanceof LostLease || error instanceof Cancelled) return;
    if (error instanceof DomainError)
      return this.fail(job, `The generated site was refused: ${error.message}`);
    const known = error instanceof GenerationError;
    if (!known) this.logger?.error({ err: error, generationId: job.id }, 'generation failed unexpectedly');
    const message = known ? error.message : 'The generation failed on the service side';
    const retryable = known ? error.retryable : true;
    const delay = retryable ? this.settings.retrySchedule[job.attempts] : undefined;
    if (delay === undefined) return this.fail(job, message);
    const now = Date.now();
    const retryAt = new Date(now + delay).toISOString();
    await this.finish(
      job,
      {
        status: 'queued',
        error: message,
        next_attempt_at: retryAt,
        lease_until: null,
        lease_token: null,
        updated_at: new Date(now).toISOString(),
      },
      {
        kind: 'retrying',
        message: `${message}; trying again at ${retryAt}`,
      },
    );
  }

  private async fail(job: Job, message: string): Promise<void> {
    const now = new Date().toISOString();
    await this.finish(
      job,
      {
        status: 'failed',
        error: message,
        next_attempt_at: null,
        lease_until: null,
        lease_token: null,
        finished_at: now,
        updated_at: now,
      },
      { kind: 'failed', message },
    );
  }

  /**
   * Writes the job's new state and its event together, if the job is still this worker's. A failed
   * generation changed nothing: its AI message is given back in the same transaction.
   */
  private async finish(
    job: Job,
    changes: Updateable<GenerationsTable>,
    event: { kind: 'retrying' | 'failed'; message: string },
  ): Promise<void> {
    await this.database.transaction(async (trx) => {
      if (await repo.updateLeased(trx, job.id, job.token, changes)) {
        await appendEvent(trx, {
          generationId: job.id,
          orgId: job.orgId,
          ...event,
        });
        if (event.kind === 'failed' && job.counted)
          await repo.uncountMessage(trx, job.counted.clientId, job.counted.day);
      }
    });
  }
}

/** What the summary says of files also written while the generation ran, which its answer replaced. */
function replacedNote(paths: string[]): string {
  const named =
    paths.length > 5 ? `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more` : paths.join(', ');
  return `changed while this ran, and replaced by this answer: ${named}; the version history keeps the earlier version`;
}
