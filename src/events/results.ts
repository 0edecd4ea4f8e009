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

export async function recordResults(db: Kysely<DB>, finished: Finished[], policy: ResultPolicy): Promise<void> {
  if (finished.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values(
        finished.map(({ job, result }) => ({
          id: newId(),
          delivery_id: job.deliveryId,
          attempted_at: result.attemptedAt,
          duration_ms: result.durationMs,
          status_code: result.statusCode,
          error: result.error,
          response_body: result.responseBody,
        })),
      )
      .execute();
    const now = Date.now();
    for (const { job, result, once } of finished) {
      const attempts = job.attemptCount + 1;
      const step = once
        ? { status: result.ok ? ('succeeded' as const) : ('failed' as const), nextAttemptAt: null }
        : nextStep(result, attempts, policy.retrySchedule, now);
      // Only under our lease and while pending: a deleted endpoint's delivery stays dropped, and a
      // lease that ran out belongs to whoever claimed the delivery since.
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: step.status, attempt_count: attempts, next_attempt_at: step.nextAttemptAt, lease_until: null, lease_token: null, updated_at: new Date(now).toISOString() })
        .where('id', '=', job.deliveryId)
        .where('lease_token', '=', job.leaseToken)
        .where('status', '=', 'pending')
        .execute();
    }
    await updateHealth(trx, finished.filter((f) => !f.once), policy.disableAfterMs, now);
  });
}

/**
 * A success clears the endpoint's failure run. A failure starts one (failing_since); a 410 Gone,
 * or a run longer than disableAfterMs, switches the endpoint off with the reason recorded. Its
 * pending deliveries are then held until someone switches it back on.
 */
async function updateHealth(trx: Transaction<DB>, finished: Finished[], disableAfterMs: number, now: number): Promise<void> {
  const byEndpoint = new Map<string, AttemptResult[]>();
  for (const { job, result } of finished) byEndpoint.set(job.webhookId, [...(byEndpoint.get(job.webhookId) ?? []), result]);
  const nowIso = new Date(now).toISOString();
  for (const [webhookId, results] of byEndpoint) {
    const last = results[results.length - 1]!;
    if (last.ok) {
      await trx.updateTable('webhooks').set({ failing_since: null }).where('id', '=', webhookId).where('failing_since', 'is not', null).execute();
      continue;
    }
    const firstFailure = results.find((r) => !r.ok)!.attemptedAt;
    await trx.updateTable('webhooks').set({ failing_since: firstFailure }).where('id', '=', webhookId).where('failing_since', 'is', null).execute();
    const gone = results.find((r) => r.statusCode === 410);
    let reason: string | null = gone ? `the endpoint answered 410 Gone at ${gone.attemptedAt}` : null;
    if (!reason) {
      const row = await trx.selectFrom('webhooks').select('failing_since').where('id', '=', webhookId).executeTakeFirst();
      const since = row?.failing_since ? toIso(row.failing_since) : null;
      if (since && now - Date.parse(since) >= disableAfterMs) {
        reason = `every attempt failed since ${since} (more than ${formatDuration(disableAfterMs)})`;
      }
    }
    if (reason) {
      await trx
        .updateTable('webhooks')
        .set({ is_active: false, disabled_reason: reason, updated_at: nowIso })
        .where('id', '=', webhookId)
        .where('is_active', '=', true)
        .execute();
    }
  }
}
