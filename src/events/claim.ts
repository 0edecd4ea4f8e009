// Claiming due deliveries. A claim is a lease: lease_until in the future and a lease_token that
// only the claiming dispatcher knows; it sends, then records the result under that token. A
// dispatcher that dies leaves its lease to run out, and another one sends again (at least once).
//
// Two steps. First, which endpoints have due work and room: an endpoint already holding
// `endpointConcurrency` leased attempts (a slow or dead one) gets nothing more, so it can never
// fill the pool and delay the others. Second, one atomic statement leases the oldest due
// deliveries of those endpoints: on PostgreSQL rows are locked with FOR UPDATE SKIP LOCKED, so
// concurrent dispatchers pass each other's rows by; on SQLite the single UPDATE ... RETURNING is
// atomic against every other connection.
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../db/index.ts';
import { num } from '../db/executor.ts';
import { toIso } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';

/** SQLite allows 500 terms in a compound SELECT; one claim serves at most this many endpoints. */
const MAX_ENDPOINTS_PER_CLAIM = 100;

export interface ClaimOptions {
  /** Free slots in the dispatcher's pool. */
  limit: number;
  endpointConcurrency: number;
  leaseMs: number;
  now?: number;
}

export interface Claimed {
  ids: string[];
  token: string;
}

const due = (now: string) =>
  sql`x.status = 'pending' AND x.next_attempt_at <= ${now} AND (x.lease_until IS NULL OR x.lease_until <= ${now})`;

export async function claimDue(database: Database, opts: ClaimOptions): Promise<Claimed> {
  const token = newId();
  const nowMs = opts.now ?? Date.now();
  const now = new Date(nowMs).toISOString();
  const { rows: endpoints } = await sql<{ webhook_id: string; busy: number | string }>`
    SELECT webhook_id, busy FROM (
      SELECT w.id AS webhook_id,
        (SELECT x.next_attempt_at FROM webhook_deliveries x
          WHERE x.webhook_id = w.id AND ${due(now)} ORDER BY x.next_attempt_at LIMIT 1) AS oldest_due,
        (SELECT count(*) FROM webhook_deliveries b
          WHERE b.webhook_id = w.id AND b.status = 'pending' AND b.lease_until > ${now}) AS busy
      FROM webhooks w WHERE w.is_active = ${true}
    ) s
    WHERE oldest_due IS NOT NULL AND busy < ${opts.endpointConcurrency}
    ORDER BY oldest_due LIMIT ${MAX_ENDPOINTS_PER_CLAIM}`.execute(database.db);

  // Oldest work first; each endpoint takes at most its free room.
  const picks: { webhookId: string; count: number }[] = [];
  let free = opts.limit;
  for (const e of endpoints) {
    if (free <= 0) break;
    const count = Math.min(free, opts.endpointConcurrency - num(e.busy));
    picks.push({ webhookId: e.webhook_id, count });
    free -= count;
  }
  if (picks.length === 0) return { ids: [], token };

  const lock = database.engine === 'postgres' ? sql` FOR UPDATE SKIP LOCKED` : sql``;
  const arms: RawBuilder<unknown>[] = picks.map(
    (p, i) => sql`SELECT id FROM (SELECT x.id FROM webhook_deliveries x
      WHERE x.webhook_id = ${p.webhookId} AND ${due(now)}
      ORDER BY x.next_attempt_at LIMIT ${p.count}${lock}) ${sql.raw(`a${i}`)}`,
  );
  const until = new Date(nowMs + opts.leaseMs).toISOString();
  const { rows } = await sql<{ id: string }>`
    UPDATE webhook_deliveries SET lease_until = ${until}, lease_token = ${token}
    WHERE id IN (${sql.join(arms, sql` UNION ALL `)})
      AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now})
    RETURNING id`.execute(database.db);
  return { ids: rows.map((r) => r.id), token };
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
export async function loadJobs(database: Database, claimed: Claimed, now = Date.now()): Promise<DeliveryJob[]> {
  if (claimed.ids.length === 0) return [];
  const rows = await database.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select(['d.id', 'd.webhook_id', 'd.event_id', 'd.attempt_count', 'e.payload', 'w.url', 'w.secret', 'w.previous_secret', 'w.previous_secret_expires_at'])
    .where('d.id', 'in', claimed.ids)
    .where('d.lease_token', '=', claimed.token)
    .execute();
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
  const overlapEnds = w.previous_secret_expires_at === null ? 0 : Date.parse(toIso(w.previous_secret_expires_at));
  return w.previous_secret && overlapEnds > now ? [w.secret, w.previous_secret] : [w.secret];
}
