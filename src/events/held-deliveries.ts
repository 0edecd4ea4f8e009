// Deliveries of a switched-off endpoint are held: not sent, not dropped. They go out when the
// endpoint is switched back on within one retry-schedule span (the sum of its steps plus 10 %,
// about 30 hours by default) of the time they were due; later they could only arrive absurdly
// late, so they become failed (a replay can still send them).
import type { Executor } from '../db/executor.ts';
import { failHeldBefore } from './repo.ts';
import { scheduleSpan } from './schedule.ts';

export async function expireHeldDeliveries(
  db: Executor,
  retrySchedule: readonly number[],
  opts: { now?: number; webhookId?: string } = {},
): Promise<number> {
  const now = opts.now ?? Date.now();
  const cutoff = new Date(now - scheduleSpan(retrySchedule)).toISOString();
  return failHeldBefore(db, cutoff, new Date(now).toISOString(), opts.webhookId);
}
