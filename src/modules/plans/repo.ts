// SQL for plans. Every function takes the organization id.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { bool, num, type Executor } from '../../db/executor.ts';
import type { PlansTable } from '../../db/schema.ts';
import type { Database } from '../../db/index.ts';
import { OrgList } from '../../db/org-list.ts';
import { toIso } from '../../lib/clock.ts';
import type { Plan } from './schema.ts';

export type PlanRow = Selectable<PlansTable>;

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: num(row.price),
    interval: row.interval as Plan['interval'],
    max_sites: row.max_sites,
    max_ai_messages_daily: row.max_ai_messages_daily,
    can_export_code: bool(row.can_export_code),
    can_use_custom_domain: bool(row.can_use_custom_domain),
    is_active: bool(row.is_active),
    is_default: bool(row.is_default),
    sort_order: row.sort_order,
    created_at: toIso(row.created_at),
    stripe_product_id: row.stripe_product_id ?? null,
    stripe_price_id: row.stripe_price_id ?? null,
  };
}

export async function findPlan(db: Executor, orgId: string, id: string): Promise<Plan | undefined> {
  const row = await db
    .selectFrom('plans')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toPlan(row);
}

/** GET /plans, by `sort_order`, then creation: a page, or every record in keyset pages. */
export function planList(database: Database): OrgList<PlanRow> {
  return new OrgList<PlanRow>(database, 'plans', {
    columns: ['sort_order', 'created_at', 'id'],
    direction: 'asc',
  });
}

export async function insertPlan(db: Executor, row: Insertable<PlansTable>): Promise<void> {
  await db.insertInto('plans').values(row).execute();
}

export async function updatePlan(
  db: Executor,
  orgId: string,
  id: string,
  changes: Updateable<PlansTable>,
): Promise<void> {
  await db.updateTable('plans').set(changes).where('org_id', '=', orgId).where('id', '=', id).execute();
}

/** Clears the default flag on every other plan of the organization. */
export async function unsetOtherDefaults(
  db: Executor,
  orgId: string,
  keepId: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('plans')
    .set({ is_default: false, updated_at: now })
    .where('org_id', '=', orgId)
    .where('id', '!=', keepId)
    .where('is_default', '=', true)
    .execute();
}

/** The plan of a client, when it has one: what its projects may do. */
export function findClientPlan(db: Executor, orgId: string, clientId: string) {
  return db
    .selectFrom('clients')
    .innerJoin('plans', 'plans.id', 'clients.plan_id')
    .select(['plans.name', 'plans.can_export_code', 'plans.can_use_custom_domain'])
    .where('clients.org_id', '=', orgId)
    .where('clients.id', '=', clientId)
    .executeTakeFirst();
}

/**
 * The organization's default plan, when it has one that is active: what a client who signs up
 * by itself gets. The one place that decides it.
 */
export async function findDefaultPlanId(db: Executor, orgId: string): Promise<string | undefined> {
  const plan = await db
    .selectFrom('plans')
    .select('id')
    .where('org_id', '=', orgId)
    .where('is_default', '=', true)
    .where('is_active', '=', true)
    .executeTakeFirst();
  return plan?.id;
}
