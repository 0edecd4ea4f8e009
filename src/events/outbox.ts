// The outbox: an event and its deliveries are written in the caller's transaction, together with
// the change that caused them, so a crash can never keep one without the other. The dispatcher
// sends them later, at least once.
//
// Call it from a service, inside the transaction that makes the change:
//
//   await recordEvent(trx, { orgId, type: 'project.created', data: { project } });
//
// `data` holds the record(s) exactly as the REST API returns them.
import type { Executor } from '../db/executor.ts';
import { nowIso } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { signalWork } from '../jobs/signal.ts';
import * as repo from './repo.ts';
import { TEST_EVENT_TYPE, type AnyEventType, type EventType } from './types.ts';

export interface NewEvent {
  orgId: string;
  type: EventType;
  data: Record<string, unknown>;
}

export interface RecordedEvent {
  id: string;
  type: AnyEventType;
  timestamp: string;
  /** The exact body every delivery of this event sends. */
  payload: string;
  /** One delivery per endpoint the event fans out to (those active and subscribed right now). */
  deliveryIds: string[];
}

/** Records an event and one pending delivery per active endpoint of the org subscribed to its type. */
export async function recordEvent(trx: Executor, event: NewEvent): Promise<RecordedEvent> {
  const endpoints = await repo.activeEndpoints(trx, event.orgId);
  const subscribed = endpoints
    .filter((w) => (JSON.parse(w.events) as string[]).includes(event.type))
    .map((w) => w.id);
  const recorded = await insertEvent(trx, event.orgId, event.type, event.data, subscribed);
  if (subscribed.length > 0) signalWork('outbox');
  return recorded;
}

/**
 * The `webhook.test` ping for one endpoint. Its delivery is created leased to the caller, which
 * sends it at once; if the caller dies first, the lease runs out and a dispatcher sends it.
 */
export async function recordTestEvent(
  trx: Executor,
  orgId: string,
  webhookId: string,
  data: Record<string, unknown>,
  lease: { token: string; until: string },
): Promise<RecordedEvent> {
  return insertEvent(trx, orgId, TEST_EVENT_TYPE, data, [webhookId], lease);
}

async function insertEvent(
  trx: Executor,
  orgId: string,
  type: AnyEventType,
  data: Record<string, unknown>,
  webhookIds: string[],
  lease?: { token: string; until: string },
): Promise<RecordedEvent> {
  const id = newId();
  const timestamp = nowIso();
  const payload = JSON.stringify({ id, type, timestamp, data });
  await repo.insertEvent(trx, { id, org_id: orgId, type, payload, created_at: timestamp });
  const deliveries = webhookIds.map((webhookId) => ({
    id: newId(),
    org_id: orgId,
    webhook_id: webhookId,
    event_id: id,
    event_type: type,
    status: 'pending' as const,
    attempt_count: 0,
    next_attempt_at: timestamp,
    lease_until: lease?.until ?? null,
    lease_token: lease?.token ?? null,
    created_at: timestamp,
    updated_at: timestamp,
  }));
  await repo.insertDeliveries(trx, deliveries);
  return { id, type, timestamp, payload, deliveryIds: deliveries.map((d) => d.id) };
}
