// What happens after an attempt: success ends the delivery; a failure waits for the next step of
// the retry schedule (with jitter, and never sooner than the receiver's Retry-After); a failure
// after the last step marks the delivery failed.
import type { DeliveryStatus } from '../db/schema.ts';

/** A receiver cannot push its retry further out than this with Retry-After. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/** +-10 %: endpoints that failed together do not all come back at the same instant. */
const JITTER = 0.1;

export interface NextStep {
  status: Extract<DeliveryStatus, 'pending' | 'succeeded' | 'failed'>;
  nextAttemptAt: string | null;
}

/**
 * `attempts` counts the attempt just made. Schedule entry i is the delay before attempt i + 1,
 * so after n attempts the next one waits schedule[n]; with none left the delivery has failed.
 */
export function nextStep(
  outcome: { ok: boolean; retryAfterMs: number | null },
  attempts: number,
  schedule: readonly number[],
  now: number = Date.now(),
  random: () => number = Math.random,
): NextStep {
  if (outcome.ok) return { status: 'succeeded', nextAttemptAt: null };
  const step = schedule[attempts];
  if (step === undefined) return { status: 'failed', nextAttemptAt: null };
  let delay = Math.round(step * (1 - JITTER + 2 * JITTER * random()));
  if (outcome.retryAfterMs !== null)
    delay = Math.max(delay, Math.min(outcome.retryAfterMs, MAX_RETRY_AFTER_MS));
  return { status: 'pending', nextAttemptAt: new Date(now + delay).toISOString() };
}

/** How long a delivery can live on its schedule: a held one older than this can no longer go out. */
export function scheduleSpan(schedule: readonly number[]): number {
  return schedule.reduce((sum, ms) => sum + ms, 0) * (1 + JITTER);
}
