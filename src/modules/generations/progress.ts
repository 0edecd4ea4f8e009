// What a person watching a generation sees: its events, numbered per generation. Written by the
// service (queued, cancelled) and the worker (running, steps, retrying, succeeded, failed), each
// in a transaction that holds the generation's row, so numbers never collide across processes.
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { num } from '../../db/executor.ts';
import type { GenerationEventKind } from '../../db/schema.ts';
import { toIso } from '../../lib/clock.ts';
import { signalWork } from '../../jobs/signal.ts';
import * as repo from './progress-repo.ts';
import type { GenerationEvent } from './schema.ts';

/** The kinds after which nothing more happens to a generation. */
export const FINAL_KINDS: ReadonlySet<GenerationEventKind> = new Set(['succeeded', 'failed', 'cancelled']);

export interface NewEvent {
  generationId: string;
  orgId: string;
  kind: GenerationEventKind;
  message: string;
  path?: string | null;
}

/**
 * Appends an event inside the caller's transaction (the generation row locked for writing).
 * With `leaseToken`, only while that worker still holds the job: a step reported after a cancel
 * or a takeover is dropped. Returns whether it was written.
 */
export async function appendEvent(trx: Executor, event: NewEvent, leaseToken?: string): Promise<boolean> {
  await repo.lockGeneration(trx, event.generationId);
  if (leaseToken !== undefined) {
    if ((await repo.leaseTokenOf(trx, event.generationId)) !== leaseToken) return false;
  }
  const last = await repo.lastEventSeq(trx, event.generationId);
  await repo.insertEvent(trx, {
    generation_id: event.generationId,
    seq: num(last ?? 0) + 1,
    org_id: event.orgId,
    kind: event.kind,
    message: event.message.slice(0, 2_000),
    path: event.path ?? null,
    created_at: new Date().toISOString(),
  });
  signalWork('progress');
  return true;
}

/** Appends one event in a transaction of its own (see appendEvent). */
export function recordEvent(database: Database, event: NewEvent, leaseToken?: string): Promise<boolean> {
  return database.transaction((trx) => appendEvent(trx, event, leaseToken));
}

export async function eventsAfter(
  db: Executor,
  orgId: string,
  generationId: string,
  afterSeq: number,
): Promise<GenerationEvent[]> {
  const rows = await repo.eventsAfter(db, orgId, generationId, afterSeq);
  return rows.map((r) => ({
    seq: num(r.seq),
    kind: r.kind,
    message: r.message,
    path: r.path,
    created_at: toIso(r.created_at),
  }));
}
