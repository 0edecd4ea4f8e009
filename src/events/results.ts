// Recording attempts. Results are written in batches, one transaction each, so a dispatcher
// sending hundreds of attempts a second commits (and on SQLite fsyncs) a few times a second, not
// hundreds. A result that never gets written (crash) leaves its lease to expire and the attempt
// is made again: at least once, with the same webhook-id.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { toIso } from '../lib/clock.ts';
import { formatDuration } from '../lib/duration.ts';
import { newId } from '../lib/ids.ts';
import type { DeliveryJob } from './claim.ts';
import * as repo from './repo.ts';
import { nextStep } from './schedule.ts';
import type { AttemptResult } from './sender.ts';

export interface Finished {
  job: DeliveryJob;
  result: AttemptResult;
  /** A one-off (the test ping): no retries, and the endpoint's health is left alone. */
  once?: boolean;
}

export interface ResultPolicy {
  retrySchedule: readonly number[];
  disableAfterMs: number;
}

export async function recordResults(
  db: Kysely<DB>,
  finished: Finished[],
  policy: ResultPolicy,
): Promise<void> {
  if (finished.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await repo.insertAttempts(
      trx,
      finished.map(({ job, result }) => ({
        id: newId(),
        delivery_id: job.deliveryId,
        attempted_at: result.attemptedAt,
        duration_ms: result.durationMs,
        status_code: result.statusCode,
        error: result.error,
        response_body: result.responseBody,
      })),
    );
    const now = Date.now();
    for (const { job, result, once } of finished) {
      const attempts = job.attemptCount + 1;
      const step = once
        ? { status: result.ok ? ('succeeded' as const) : ('failed' as const), nextAttemptAt: null }
        : nextStep(result, attempts, policy.retrySchedule, now);
      await repo.finishAttempt(trx, job.deliveryId, job.leaseToken, {
        status: step.status,
        attempt_count: attempts,
        next_attempt_at: step.nextAttemptAt,
        updated_at: new Date(now).toISOString(),
      });
    }
    await updateHealth(
      trx,
      finished.filter((f) => !f.once),
      policy.disableAfterMs,
      now,
    );
  });
}

/**
 * A success clears the endpoint's failure run. A failure starts one (failing_since); a 410 Gone,
 * or a run longer than disableAfterMs, switches the endpoint off with the reason recorded. Its
 * pending deliveries are then held until someone switches it back on.
 */
async function updateHealth(
  trx: Transaction<DB>,
  finished: Finished[],
  disableAfterMs: number,
  now: number,
): Promise<void> {
  const byEndpoint = new Map<string, AttemptResult[]>();
  for (const { job, result } of finished)
    byEndpoint.set(job.webhookId, [...(byEndpoint.get(job.webhookId) ?? []), result]);
  const nowIso = new Date(now).toISOString();
  for (const [webhookId, results] of byEndpoint) {
    const last = results[results.length - 1]!;
    if (last.ok) {
      await repo.clearFailing(trx, webhookId);
      continue;
    }
    const firstFailure = results.find((r) => !r.ok)!.attemptedAt;
    await repo.startFailing(trx, webhookId, firstFailure);
    const gone = results.find((r) => r.statusCode === 410);
    let reason: string | null = gone ? `the endpoint answered 410 Gone at ${gone.attemptedAt}` : null;
    if (!reason) {
      const failing = await repo.failingSince(trx, webhookId);
      const since = failing ? toIso(failing) : null;
      if (since && now - Date.parse(since) >= disableAfterMs) {
        reason = `every attempt failed since ${since} (more than ${formatDuration(disableAfterMs)})`;
      }
    }
    if (reason) await repo.disableEndpoint(trx, webhookId, reason, nowIso);
  }
}
