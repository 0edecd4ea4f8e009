// Business rules for plans: the spec's defaults, at most one default plan per organization.
// Price changes apply to new subscriptions; existing ones keep their price until renewal
// (billing reads the price at renewal time).
import type { Database } from '../../db/index.ts';
import { notFound } from '../common/errors.ts';
import { mapStreamed, type ListPage, type StreamedList } from '../common/paging.ts';
import { newId } from '../../lib/ids.ts';
import { nowIso } from '../../lib/clock.ts';
import { nonBlank } from '../common/text.ts';
import * as repo from './repo.ts';
import type { CreatePlanBody, Plan, UpdatePlanBody } from './schema.ts';
import { agencyOrg, requirePermission } from '../access/access.ts';
import { findClientPlanId } from '../clients/repo.ts';
import type { Principal } from '../access/principal.ts';

const REFUSAL = "Plans are the agency's to manage";

export class PlansService {
  private readonly listQuery: ReturnType<typeof repo.planList>;

  constructor(
    private readonly database: Database,
    /** Billing keeps the plan's Product and Price in step on the connected account. */
    private readonly changed: (orgId: string, planId: string) => Promise<void> = async () => {},
  ) {
    this.listQuery = repo.planList(database);
  }

  private get db() {
    return this.database.db;
  }

  async list(principal: Principal, limit: number, offset: number): Promise<ListPage<Plan>> {
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    const { rows, total } = await this.listQuery.page(orgId, limit, offset);
    return { records: rows.map(repo.toPlan), total };
  }

  /** Every plan from `offset` on, in list order, read a page at a time. */
  streamAll(principal: Principal, offset: number): StreamedList<Plan> {
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    return mapStreamed(this.listQuery.streamAll(orgId, offset), repo.toPlan);
  }

  /** A plan; a principal limited to one client reads the plan its client is on only. */
  async get(principal: Principal, id: string): Promise<Plan> {
    requirePermission(principal, 'read');
    const { orgId } = principal;
    if (principal.clientId !== undefined) {
      const client = await findClientPlanId(this.db, orgId, principal.clientId, false);
      if (client?.plan_id !== id) throw notFound('Plan');
    }
    const plan = await repo.findPlan(this.db, orgId, id);
    if (!plan) throw notFound('Plan');
    return plan;
  }

  async create(principal: Principal, body: CreatePlanBody): Promise<Plan> {
    const orgId = agencyOrg(principal, 'write', REFUSAL, true);
    const now = nowIso();
    const row = {
      id: newId(),
      org_id: orgId,
      name: nonBlank('name', body.name),
      description: body.description ?? null,
      price: body.price,
      interval: body.interval ?? 'monthly',
      max_sites: body.max_sites ?? 3,
      max_ai_messages_daily: body.max_ai_messages_daily ?? 50,
      can_export_code: body.can_export_code ?? false,
      can_use_custom_domain: body.can_use_custom_domain ?? false,
      is_active: true,
      is_default: false,
      sort_order: 0,
      created_at: now,
      updated_at: now,
    };
    await repo.insertPlan(this.db, row);
    await this.changed(orgId, row.id);
    return (await repo.findPlan(this.db, orgId, row.id))!;
  }

  async update(principal: Principal, id: string, body: UpdatePlanBody): Promise<Plan> {
    const orgId = agencyOrg(principal, 'write', REFUSAL, true);
    // A bad value is a 400 even for a plan that does not exist (400 before 404).
    const changes = body.name === undefined ? body : { ...body, name: nonBlank('name', body.name) };
    await this.database.transaction(async (trx) => {
      if (!(await repo.findPlan(trx, orgId, id))) throw notFound('Plan');
      const now = nowIso();
      if (body.is_default === true) await repo.unsetOtherDefaults(trx, orgId, id, now);
      await repo.updatePlan(trx, orgId, id, { ...changes, updated_at: now });
    });
    await this.changed(orgId, id);
    return (await repo.findPlan(this.db, orgId, id))!;
  }
}
