// SQL for billing: connections, the events handled, prices, customers, payments, activity and the
// organization's billing settings. Every function that reads an organization's data takes its id
// or a connection's (which belongs to exactly one organization).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/executor.ts';
import { forWrite } from '../../db/locks.ts';
import { readBillingSettings, type BillingSettings } from './settings.ts';
import type {
  BillingActivityTable,
  BillingConnectionsTable,
  BillingCustomersTable,
  BillingHoldsTable,
  BillingPricesTable,
  BillingPlatformTable,
  PaymentsTable,
} from '../../db/schema.ts';

export type ConnectionRow = Selectable<BillingConnectionsTable>;
export type PriceRow = Selectable<BillingPricesTable>;
export type CustomerRow = Selectable<BillingCustomersTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type ActivityRow = Selectable<BillingActivityTable>;

export function liveConnection(db: Executor, orgId: string): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('billing_connections')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('disconnected_at', 'is', null)
    .executeTakeFirst();
}

export function liveConnectionById(db: Executor, id: string): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('billing_connections')
    .selectAll()
    .where('id', '=', id)
    .where('disconnected_at', 'is', null)
    .executeTakeFirst();
}

/** The live Connect connection of a connected account (events on the platform's endpoint). */
export function liveConnectionOfAccount(
  db: Executor,
  accountId: string,
  livemode: boolean,
): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('billing_connections')
    .selectAll()
    .where('method', '=', 'connect')
    .where('account_id', '=', accountId)
    .where('livemode', '=', livemode)
    .where('disconnected_at', 'is', null)
    .executeTakeFirst();
}

/** An earlier connection of the same account and mode: reconnecting finds its records again. */
export function earlierConnection(
  db: Executor,
  orgId: string,
  accountId: string,
  livemode: boolean,
): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('billing_connections')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('account_id', '=', accountId)
    .where('livemode', '=', livemode)
    .orderBy('connected_at', 'desc')
    .executeTakeFirst();
}

export async function insertConnection(
  db: Executor,
  row: Insertable<BillingConnectionsTable>,
): Promise<void> {
  await db.insertInto('billing_connections').values(row).execute();
}

export async function updateConnection(
  db: Executor,
  id: string,
  changes: Updateable<BillingConnectionsTable>,
): Promise<void> {
  await db.updateTable('billing_connections').set(changes).where('id', '=', id).execute();
}

export function findPlatform(
  db: Executor,
  accountId: string,
  livemode: boolean,
): Promise<Selectable<BillingPlatformTable> | undefined> {
  return db
    .selectFrom('billing_platform')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('livemode', '=', livemode)
    .executeTakeFirst();
}

/** Every platform endpoint: an event on /webhooks/stripe/connect is tried against each secret. */
export function platformEndpoints(db: Executor): Promise<Selectable<BillingPlatformTable>[]> {
  return db.selectFrom('billing_platform').selectAll().execute();
}

export async function insertPlatform(db: Executor, row: Insertable<BillingPlatformTable>): Promise<boolean> {
  const result = await db
    .insertInto('billing_platform')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'livemode']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function eventSeen(db: Executor, connectionId: string, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('billing_events')
    .select('event_id')
    .where('connection_id', '=', connectionId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records the event; false when it was recorded already (a replay, or a concurrent delivery). */
export async function recordProcessorEvent(
  db: Executor,
  row: { connection_id: string; event_id: string; type: string; received_at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('billing_events')
    .values(row)
    .onConflict((oc) => oc.columns(['connection_id', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function currentPrice(
  db: Executor,
  connectionId: string,
  planId: string,
): Promise<PriceRow | undefined> {
  return db
    .selectFrom('billing_prices')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('plan_id', '=', planId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export function priceById(
  db: Executor,
  connectionId: string,
  priceId: string,
): Promise<PriceRow | undefined> {
  return db
    .selectFrom('billing_prices')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('price_id', '=', priceId)
    .executeTakeFirst();
}

export async function insertPrice(db: Executor, row: Insertable<BillingPricesTable>): Promise<void> {
  await db.insertInto('billing_prices').values(row).execute();
}

export async function deactivatePrice(db: Executor, connectionId: string, priceId: string): Promise<void> {
  await db
    .updateTable('billing_prices')
    .set({ active: false })
    .where('connection_id', '=', connectionId)
    .where('price_id', '=', priceId)
    .execute();
}

/** The plans' current prices on a connection (the newest per plan). */
export async function currentPrices(db: Executor, connectionId: string): Promise<Map<string, PriceRow>> {
  const rows = await db
    .selectFrom('billing_prices')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .orderBy('created_at', 'asc')
    .execute();
  return new Map(rows.map((row) => [row.plan_id, row]));
}

/** Subscriptions on a plan's older prices: they move to its current price at renewal. */
export function customersOnOlderPrices(
  db: Executor,
  connectionId: string,
  planId: string,
  currentPriceId: string,
): Promise<CustomerRow[]> {
  return db
    .selectFrom('billing_customers')
    .innerJoin('billing_prices', (join) =>
      join
        .onRef('billing_prices.connection_id', '=', 'billing_customers.connection_id')
        .onRef('billing_prices.price_id', '=', 'billing_customers.price_id'),
    )
    .selectAll('billing_customers')
    .where('billing_customers.connection_id', '=', connectionId)
    .where('billing_prices.plan_id', '=', planId)
    .where('billing_customers.price_id', '!=', currentPriceId)
    .where('billing_customers.subscription_id', 'is not', null)
    .where('billing_customers.subscription_status', 'not in', ['canceled', 'incomplete_expired'])
    .execute();
}

export function customerOfClient(
  db: Executor,
  connectionId: string,
  clientId: string,
  lock = false,
): Promise<CustomerRow | undefined> {
  const query = db
    .selectFrom('billing_customers')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('client_id', '=', clientId);
  return (lock ? forWrite(db, query) : query).executeTakeFirst();
}

export function customerById(
  db: Executor,
  connectionId: string,
  customerId: string,
  lock = false,
): Promise<CustomerRow | undefined> {
  const query = db
    .selectFrom('billing_customers')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('customer_id', '=', customerId);
  return (lock ? forWrite(db, query) : query).executeTakeFirst();
}

export async function insertCustomer(db: Executor, row: Insertable<BillingCustomersTable>): Promise<boolean> {
  const result = await db
    .insertInto('billing_customers')
    .values(row)
    .onConflict((oc) => oc.columns(['connection_id', 'client_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateCustomer(
  db: Executor,
  connectionId: string,
  clientId: string,
  changes: Updateable<BillingCustomersTable>,
): Promise<void> {
  await db
    .updateTable('billing_customers')
    .set(changes)
    .where('connection_id', '=', connectionId)
    .where('client_id', '=', clientId)
    .execute();
}

/** The organizations with a live connection (the past-due sweep looks at each one's setting). */
export async function orgsWithBilling(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('billing_connections')
    .select('org_id')
    .where('disconnected_at', 'is', null)
    .execute();
  return rows.map((row) => row.org_id);
}

/** An organization's customers past due since before `since` that the automation has not acted on yet. */
export function pastDueSince(
  db: Executor,
  orgId: string,
  since: string,
  limit: number,
): Promise<CustomerRow[]> {
  return db
    .selectFrom('billing_customers')
    .innerJoin('billing_connections', 'billing_connections.id', 'billing_customers.connection_id')
    .selectAll('billing_customers')
    .where('billing_connections.disconnected_at', 'is', null)
    .where('billing_customers.past_due_since', '<=', since)
    .where('billing_customers.past_due_acted_at', 'is', null)
    .where('billing_customers.subscription_status', 'in', ['past_due', 'unpaid', 'paused'])
    .where('billing_customers.org_id', '=', orgId)
    .orderBy('billing_customers.past_due_since', 'asc')
    .limit(limit)
    .execute();
}

/** Takes the episode for this instance: false when another one (or an earlier sweep) has it. */
export async function claimPastDue(db: Executor, customer: CustomerRow, at: string): Promise<boolean> {
  const result = await db
    .updateTable('billing_customers')
    .set({ past_due_acted_at: at })
    .where('connection_id', '=', customer.connection_id)
    .where('client_id', '=', customer.client_id)
    .where('past_due_acted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertPayment(db: Executor, row: Insertable<PaymentsTable>): Promise<boolean> {
  const result = await db
    .insertInto('payments')
    .values(row)
    .onConflict((oc) => oc.columns(['connection_id', 'invoice_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function countPayments(db: Executor, orgId: string, clientId: string): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listPayments(
  db: Executor,
  orgId: string,
  clientId: string,
  limit: number,
  offset: number,
): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .orderBy('paid_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function insertActivity(db: Executor, row: Insertable<BillingActivityTable>): Promise<void> {
  await db.insertInto('billing_activity').values(row).execute();
}

export function listActivity(
  db: Executor,
  orgId: string,
  clientId: string,
  limit: number,
): Promise<ActivityRow[]> {
  return db
    .selectFrom('billing_activity')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The organization's billing settings, the defaults for what it never set. */
export async function billingSettings(db: Executor, orgId: string): Promise<BillingSettings> {
  const row = await db
    .selectFrom('organizations')
    .select('billing_settings')
    .where('id', '=', orgId)
    .executeTakeFirst();
  return readBillingSettings(row?.billing_settings);
}

export async function writeSettingsJson(db: Executor, orgId: string, json: string): Promise<void> {
  await db.updateTable('organizations').set({ billing_settings: json }).where('id', '=', orgId).execute();
}

/** The client's payment status and status, written by billing only (a change of the processor). */
export async function setClientBilling(
  db: Executor,
  orgId: string,
  clientId: string,
  changes: { payment_status?: string; plan_id?: string | null; status?: string; updated_at: string },
): Promise<void> {
  await db
    .updateTable('clients')
    .set(changes)
    .where('org_id', '=', orgId)
    .where('id', '=', clientId)
    .execute();
}

export function planIds(db: Executor, orgId: string): Promise<{ id: string }[]> {
  return db.selectFrom('plans').select('id').where('org_id', '=', orgId).execute();
}

/** The plan's Product and current Price as the Plan record shows them (null, null: not billed). */
export async function showPlanPrice(
  db: Executor,
  orgId: string,
  planId: string | undefined,
  ids: { productId: string | null; priceId: string | null },
): Promise<void> {
  let query = db
    .updateTable('plans')
    .set({ stripe_product_id: ids.productId, stripe_price_id: ids.priceId })
    .where('org_id', '=', orgId);
  if (planId !== undefined) query = query.where('id', '=', planId);
  await query.execute();
}

export function clientProjects(
  db: Executor,
  orgId: string,
  clientId: string,
): Promise<{ id: string; name: string; current_deployment_id: string | null }[]> {
  return db
    .selectFrom('projects')
    .select(['id', 'name', 'current_deployment_id'])
    .where('org_id', '=', orgId)
    .where('org_client_id', '=', clientId)
    .where('status', '=', 'active')
    .execute();
}

export function holdsOf(
  db: Executor,
  orgId: string,
  clientId: string,
): Promise<Selectable<BillingHoldsTable>[]> {
  return db
    .selectFrom('billing_holds')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .execute();
}

export async function insertHold(db: Executor, row: Insertable<BillingHoldsTable>): Promise<void> {
  await db.insertInto('billing_holds').values(row).execute();
}

export async function deleteHold(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('billing_holds').where('id', '=', id).execute();
}

/** The agency changed the client's status itself: a suspension billing made is no longer billing's. */
export async function releaseSuspension(db: Executor, orgId: string, clientId: string): Promise<void> {
  await db
    .deleteFrom('billing_holds')
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .where('kind', '=', 'suspended')
    .execute();
}
