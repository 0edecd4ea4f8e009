// SQL for the delivery log. Every function takes the organization id and the endpoint id.
import type { Selectable } from 'kysely';
import { num, type Executor } from '../../db/executor.ts';
import type { DeliveryStatus, WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/schema.ts';
import { toIso } from '../../lib/clock.ts';
import type { WebhookAttempt, WebhookDelivery } from './deliveries-schema.ts';

type DeliveryRow = Selectable<WebhookDeliveriesTable>;
type AttemptRow = Selectable<WebhookAttemptsTable>;

function toAttempt(row: AttemptRow): WebhookAttempt {
  return {
    attempted_at: toIso(row.attempted_at),
    duration_ms: row.duration_ms,
    status_code: row.status_code,
    error: row.error,
    response_body: row.response_body,
  };
}

function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: toIso(row.next_attempt_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    attempts: attempts.map(toAttempt),
  };
}

async function withAttempts(db: Executor, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
  return rows.map((r) => toDelivery(r, byDelivery.get(r.id) ?? []));
}

export async function listDeliveries(
  db: Executor,
  orgId: string,
  webhookId: string,
  q: { limit: number; offset: number; status?: DeliveryStatus | undefined },
): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
  let base = db
    .selectFrom('webhook_deliveries')
    .where('org_id', '=', orgId)
    .where('webhook_id', '=', webhookId);
  if (q.status) base = base.where('status', '=', q.status);
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  const { total } = await base
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  return { deliveries: await withAttempts(db, rows), total: num(total) };
}

export async function findDelivery(
  db: Executor,
  orgId: string,
  webhookId: string,
  id: string,
): Promise<WebhookDelivery | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && (await withAttempts(db, [row]))[0];
}

/** Makes a delivery due now: a finished one goes back to pending and keeps its event (and webhook-id). */
export async function scheduleNow(db: Executor, orgId: string, webhookId: string, id: string): Promise<void> {
  const now = new Date().toISOString();
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, updated_at: now })
    .where('org_id', '=', orgId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', id)
    .where('status', '!=', 'dropped')
    .execute();
}

/** Deleting an endpoint: what was still to be sent is dropped, and its record kept. */
export async function dropPending(db: Executor, orgId: string, webhookId: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'dropped',
      next_attempt_at: null,
      lease_until: null,
      lease_token: null,
      updated_at: new Date().toISOString(),
    })
    .where('org_id', '=', orgId)
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .execute();
}
