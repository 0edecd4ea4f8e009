// Claiming due deliveries. A claim is a lease (src/jobs/lease.ts): lease_until in the future and a
// lease_token that only the claiming dispatcher knows; it sends, then records the result under
// that token. A dispatcher that dies leaves its lease to run out, and another one sends again (at
// least once).
//
// What is particular to deliveries is which ones a claim takes. First, which endpoints have due
// work and room: an endpoint already holding `endpointConcurrency` leased attempts (a slow or dead
// one) gets nothing more, so it can never fill the pool and delay the others. Then one statement
// leases the oldest due deliveries of those endpoints, each endpoint its share.
import type { Database } from '../db/index.ts';
import { num } from '../db/executor.ts';
import { toIso } from '../lib/clock.ts';
import { newLease, type Leased } from '../jobs/lease.ts';
import * as repo from './repo.ts';

/** SQLite allows 500 terms in a compound SELECT; one claim serves at most this many endpoints. */
const MAX_ENDPOINTS_PER_CLAIM = 100;

/** Longer than any attempt can take (the timeout) plus time to record it, so a live sender's lease never runs out under it. */
export function deliveryLeaseMs(timeoutMs: number): number {
  return 2 * timeoutMs + 1_000;
}

export interface ClaimOptions {
  /** Free slots in the dispatcher's pool. */
  limit: number;
  endpointConcurrency: number;
  leaseMs: number;
  now?: number;
}

export type Claimed = Leased;

export async function claimDue(database: Database, opts: ClaimOptions): Promise<Claimed> {
  const lease = newLease(opts.leaseMs, opts.now);
  const endpoints = await repo.endpointsWithRoom(
    database.db,
    lease.now,
    opts.endpointConcurrency,
    MAX_ENDPOINTS_PER_CLAIM,
  );

  // Oldest work first; each endpoint takes at most its free room.
  const picks: { webhookId: string; count: number }[] = [];
  let free = opts.limit;
  for (const e of endpoints) {
    if (free <= 0) break;
    const count = Math.min(free, opts.endpointConcurrency - num(e.busy));
    picks.push({ webhookId: e.webhook_id, count });
    free -= count;
  }
  if (picks.length === 0) return { ids: [], token: lease.token };
  return { ids: await repo.leaseDeliveries(database, lease, picks), token: lease.token };
}

export interface DeliveryJob {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  /** Attempts made before this one. */
  attemptCount: number;
  leaseToken: string;
  url: string;
  payload: string;
  secrets: string[];
}

/** What the claimed deliveries need for sending: endpoint URL and secrets, the event's body. */
export async function loadJobs(
  database: Database,
  claimed: Claimed,
  now = Date.now(),
): Promise<DeliveryJob[]> {
  if (claimed.ids.length === 0) return [];
  const rows = await repo.loadLeased(database.db, claimed.ids, claimed.token);
  return rows.map((r) => ({
    deliveryId: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    attemptCount: r.attempt_count,
    leaseToken: claimed.token,
    url: r.url,
    payload: r.payload,
    secrets: activeSecrets(r, now),
  }));
}

/** The current secret, and during a rotation's overlap the previous one as well. */
export function activeSecrets(
  w: { secret: string; previous_secret: string | null; previous_secret_expires_at: string | Date | null },
  now = Date.now(),
): string[] {
  const overlapEnds =
    w.previous_secret_expires_at === null ? 0 : Date.parse(toIso(w.previous_secret_expires_at));
  return w.previous_secret && overlapEnds > now ? [w.secret, w.previous_secret] : [w.secret];
}
