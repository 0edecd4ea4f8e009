// SQL of the outbox and of the delivery dispatcher. Writing an event takes the organization id;
// the dispatcher's statements serve every organization at once, so they act on deliveries it is
// leasing or holds the lease of (by token), and on those deliveries' endpoints.
import { sql, type Insertable } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Executor } from '../db/executor.ts';
import type {
  DeliveryStatus,
  EventsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
} from '../db/schema.ts';
import { leaseRows, skipLocked, type Lease } from '../jobs/lease.ts';

/** The organization's active endpoints and the event kinds (JSON) each is subscribed to. */
export function activeEndpoints(trx: Executor, orgId: string): Promise<{ id: string; events: string }[]> {
  return trx
    .selectFrom('webhooks')
    .select(['id', 'events'])
    .where('org_id', '=', orgId)
    .where('is_active', '=', true)
    .execute();
}

export async function insertEvent(trx: Executor, row: Insertable<EventsTable>): Promise<void> {
  await trx.insertInto('events').values(row).execute();
}

export async function insertDeliveries(
  trx: Executor,
  rows: Insertable<WebhookDeliveriesTable>[],
): Promise<void> {
  if (rows.length > 0) await trx.insertInto('webhook_deliveries').values(rows).execute();
}

/** A delivery `x` that is due at `now` and not leased. */
const due = (now: string) =>
  sql`x.status = 'pending' AND x.next_attempt_at <= ${now} AND (x.lease_until IS NULL OR x.lease_until <= ${now})`;

/**
 * Active endpoints with due deliveries and fewer than `endpointConcurrency` leased ones (`busy`),
 * the one with the oldest due delivery first; at most `max` of them.
 */
export async function endpointsWithRoom(db: Executor, now: string, endpointConcurrency: number, max: number) {
  const { rows } = await sql<{ webhook_id: string; busy: number | string }>`
    SELECT webhook_id, busy FROM (
      SELECT w.id AS webhook_id,
        (SELECT x.next_attempt_at FROM webhook_deliveries x
          WHERE x.webhook_id = w.id AND ${due(now)} ORDER BY x.next_attempt_at LIMIT 1) AS oldest_due,
        (SELECT count(*) FROM webhook_deliveries b
          WHERE b.webhook_id = w.id AND b.status = 'pending' AND b.lease_until > ${now}) AS busy
      FROM webhooks w WHERE w.is_active = ${true}
    ) s
    WHERE oldest_due IS NOT NULL AND busy < ${endpointConcurrency}
    ORDER BY oldest_due LIMIT ${max}`.execute(db);
  return rows;
}

/**
 * Leases the oldest `count` due deliveries of each endpoint picked. Deliveries keep their status
 * (pending) while leased; their attempt_count goes up when the attempt is recorded.
 */
export function leaseDeliveries(
  database: Database,
  lease: Lease,
  picks: { webhookId: string; count: number }[],
): Promise<string[]> {
  return leaseRows(database, lease, {
    table: 'webhook_deliveries',
    candidates: picks.map(
      (p, i) => sql`SELECT id FROM (SELECT x.id FROM webhook_deliveries x
        WHERE x.webhook_id = ${p.webhookId} AND ${due(lease.now)}
        ORDER BY x.next_attempt_at LIMIT ${p.count}${skipLocked(database)}) ${sql.raw(`a${i}`)}`,
    ),
    stillFree: sql`status = 'pending' AND (lease_until IS NULL OR lease_until <= ${lease.now})`,
  });
}

/** What leased deliveries need for sending: the endpoint's URL and secrets, the event's body. */
export function loadLeased(db: Executor, ids: string[], token: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.webhook_id',
      'd.event_id',
      'd.attempt_count',
      'e.payload',
      'w.url',
      'w.secret',
      'w.previous_secret',
      'w.previous_secret_expires_at',
    ])
    .where('d.id', 'in', ids)
    .where('d.lease_token', '=', token)
    .execute();
}

export async function insertAttempts(trx: Executor, rows: Insertable<WebhookAttemptsTable>[]): Promise<void> {
  await trx.insertInto('webhook_attempts').values(rows).execute();
}

/**
 * Records an attempt's outcome and releases the lease. Only under our lease and while pending: a
 * deleted endpoint's delivery stays dropped, and a lease that ran out belongs to whoever claimed
 * the delivery since.
 */
export async function finishAttempt(
  trx: Executor,
  id: string,
  token: string,
  step: { status: DeliveryStatus; attempt_count: number; next_attempt_at: string | null; updated_at: string },
): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: step.status,
      attempt_count: step.attempt_count,
      next_attempt_at: step.next_attempt_at,
      lease_until: null,
      lease_token: null,
      updated_at: step.updated_at,
    })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Fails the pending, unleased deliveries of inactive endpoints (or of that one endpoint) due
 * before `cutoff`; returns how many.
 */
export async function failHeldBefore(
  db: Executor,
  cutoff: string,
  now: string,
  webhookId?: string,
): Promise<number> {
  let inactive = db.selectFrom('webhooks').select('id').where('is_active', '=', false);
  if (webhookId) inactive = inactive.where('id', '=', webhookId);
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, updated_at: now })
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', cutoff)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .where('webhook_id', 'in', inactive)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// The health of the endpoints whose attempts were just recorded (see results.ts).

/** Ends the endpoint's failure run, if it had one. */
export async function clearFailing(trx: Executor, webhookId: string): Promise<void> {
  await trx
    .updateTable('webhooks')
    .set({ failing_since: null })
    .where('id', '=', webhookId)
    .where('failing_since', 'is not', null)
    .execute();
}

/** Starts the endpoint's failure run at `since`, unless one is already running. */
export async function startFailing(trx: Executor, webhookId: string, since: string): Promise<void> {
  await trx
    .updateTable('webhooks')
    .set({ failing_since: since })
    .where('id', '=', webhookId)
    .where('failing_since', 'is', null)
    .execute();
}

export async function failingSince(trx: Executor, webhookId: string) {
  const row = await trx
    .selectFrom('webhooks')
    .select('failing_since')
    .where('id', '=', webhookId)
    .executeTakeFirst();
  return row?.failing_since ?? null;
}

/** Switches the endpoint off, with the reason, unless it is off already. */
export async function disableEndpoint(
  trx: Executor,
  webhookId: string,
  reason: string,
  now: string,
): Promise<void> {
  await trx
    .updateTable('webhooks')
    .set({ is_active: false, disabled_reason: reason, updated_at: now })
    .where('id', '=', webhookId)
    .where('is_active', '=', true)
    .execute();
}
