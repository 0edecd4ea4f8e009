// Deliveries of a switched-off endpoint are held: not sent, not dropped. They go out when the
// endpoint is switched back on within one retry-schedule span (the sum of its steps plus 10 %,
// about 30 hours by default) of the time they were due; later they could only arrive absurdly
// late, so they become failed (a replay can still send them).
import type { Executor } from '../db/executor.ts';
import { scheduleSpan } from './schedule.ts';

export async function expireHeldDeliveries(
  db: Executor,
  retrySchedule: readonly number[],
  opts: { now?: number; webhookId?: string } = {},
): Promise<number> {
  const now = opts.now ?? Date.now();
  const nowIso = new Date(now).toISOString();
  const cutoff = new Date(now - scheduleSpan(retrySchedule)).toISOString();
  let inactive = db.selectFrom('webhooks').select('id').where('is_active', '=', false);
  if (opts.webhookId) inactive = inactive.where('id', '=', opts.webhookId);
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, updated_at: nowIso })
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', cutoff)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowIso)]))
    .where('webhook_id', 'in', inactive)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
