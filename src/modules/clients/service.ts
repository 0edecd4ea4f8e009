// Business rules for clients: unique email per organization (case-insensitive), plans that are
// active and of the same organization, PATCH changing only the fields present. Every change
// records its event (client.created, client.updated) in the same transaction.
import type { Database } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Executor } from '../../db/executor.ts';
import { invalid, notFound } from '../common/errors.ts';
import { mapStreamed, type ListPage, type StreamedList } from '../common/paging.ts';
import { newId } from '../../lib/ids.ts';
import { nowIso } from '../../lib/clock.ts';
import { findPlan } from '../plans/repo.ts';
import { recordEvent } from '../../events/outbox.ts';
import * as repo from './repo.ts';
import { revokeClientSessions } from '../embed/repo.ts';
import { releaseSuspension } from '../billing/repo.ts';
import type { Client, CreateClientBody, UpdateClientBody } from './schema.ts';
import { agencyOrg, requirePermission } from '../access/access.ts';
import type { Principal } from '../access/principal.ts';

const REFUSAL = "Clients are the agency's to manage";

export class ClientsService {
  private readonly findById: ReturnType<typeof repo.prepareFindClient>;
  private readonly listQuery: ReturnType<typeof repo.clientList>;

  constructor(
    private readonly database: Database,
    /** Billing keeps the client's Stripe Customer in step (its name). */
    private readonly changed: (orgId: string, clientId: string) => Promise<void> = async () => {},
  ) {
    this.findById = repo.prepareFindClient(database);
    this.listQuery = repo.clientList(database);
  }

  private get db() {
    return this.database.db;
  }

  async list(principal: Principal, limit: number, offset: number): Promise<ListPage<Client>> {
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    const { rows, total } = await this.listQuery.page(orgId, limit, offset);
    return { records: rows.map(repo.toClient), total };
  }

  /** Every client from `offset` on, newest first, read a page at a time. */
  streamAll(principal: Principal, offset: number): StreamedList<Client> {
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    return mapStreamed(this.listQuery.streamAll(orgId, offset), repo.toClient);
  }

  /** A page of clients for the dashboard, newest first, filtered by text and status. */
  async search(
    principal: Principal,
    filter: { q?: string | undefined; status?: string | undefined },
    limit: number,
    offset: number,
  ): Promise<{ clients: Client[]; total: number }> {
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    const { rows, total } = await repo.searchClients(this.db, orgId, filter, limit, offset);
    return { clients: rows.map(repo.toClient), total };
  }

  /** A client; a principal limited to one client reads its own record only. */
  async get(principal: Principal, id: string): Promise<Client> {
    requirePermission(principal, 'read');
    if (principal.clientId !== undefined && principal.clientId !== id) throw notFound('Client');
    const { orgId } = principal;
    const row = await this.findById.first({ orgId, id });
    if (!row) throw notFound('Client');
    return repo.toClient(row);
  }

  async create(principal: Principal, body: CreateClientBody): Promise<Client> {
    const orgId = agencyOrg(principal, 'write', REFUSAL);
    try {
      return await this.database.transaction((trx) => this.createIn(trx, orgId, body));
    } catch (error) {
      // Two concurrent creates with one email: the unique index decides, the loser gets the 400.
      if (isUniqueViolation(error)) throw duplicateEmail(body.email);
      throw error;
    }
  }

  /**
   * The create inside the caller's transaction. `as`: a client that signs up itself (through a
   * build link) is `active` at once, with the account id it is given.
   */
  async createIn(
    trx: Executor,
    orgId: string,
    body: CreateClientBody,
    as?: { status: 'active'; userId: string; externalId?: string },
  ): Promise<Client> {
    const now = nowIso();
    const row: repo.NewClientRow = {
      id: newId(),
      org_id: orgId,
      user_id: as?.userId ?? newId(),
      email: body.email,
      email_lower: body.email.toLowerCase(),
      name: body.name ?? null,
      company: body.company ?? null,
      status: as?.status ?? 'invited',
      plan_id: body.plan_id ?? null,
      payment_status: 'none',
      external_id: as?.externalId ?? null,
      created_at: now,
      updated_at: now,
    };
    if (await repo.findClientByEmail(trx, orgId, body.email)) throw duplicateEmail(body.email);
    if (row.plan_id) await requireAttachablePlan(trx, orgId, row.plan_id);
    await repo.insertClient(trx, row);
    const client = repo.toClient(row as repo.ClientRow);
    await recordEvent(trx, { orgId, type: 'client.created', data: { client } });
    return client;
  }

  async update(principal: Principal, id: string, body: UpdateClientBody): Promise<Client> {
    const orgId = agencyOrg(principal, 'write', REFUSAL);
    const client = await this.database.transaction((trx) => this.updateIn(trx, orgId, id, body));
    if (body.name !== undefined || body.company !== undefined) await this.changed(orgId, id);
    return client;
  }

  /** The update inside the caller's transaction (a client accepting its invitation becomes active with its account). */
  async updateIn(trx: Executor, orgId: string, id: string, body: UpdateClientBody): Promise<Client> {
    const current = await repo.findClient(trx, orgId, id);
    if (!current) throw notFound('Client');
    const changes: {
      name?: string | null;
      company?: string | null;
      status?: string;
      plan_id?: string | null;
    } = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.company !== undefined) changes.company = body.company;
    if (body.status !== undefined) changes.status = body.status;
    if (body.plan_id !== undefined) {
      if (body.plan_id !== null && body.plan_id !== current.plan_id)
        await requireAttachablePlan(trx, orgId, body.plan_id);
      changes.plan_id = body.plan_id;
    }
    const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter(
      (k) => changes[k] !== current[k],
    );
    if (changed.length === 0) return repo.toClient(current);
    const updated = { ...current, ...changes, updated_at: nowIso() };
    await repo.updateClient(trx, orgId, id, { ...changes, updated_at: updated.updated_at });
    // A suspended or churned client's embed sessions stop at their next request.
    if (changes.status === 'suspended' || changes.status === 'churned')
      await revokeClientSessions(trx, orgId, id, updated.updated_at);
    else if (changes.status !== undefined) await releaseSuspension(trx, orgId, id);
    const client = repo.toClient(updated);
    // Stripe's shape: the record as it is now, and the previous value of each field that changed.
    const previous_attributes = Object.fromEntries(changed.map((k) => [k, current[k]]));
    await recordEvent(trx, { orgId, type: 'client.updated', data: { client, previous_attributes } });
    return client;
  }
}

function duplicateEmail(email: string) {
  return invalid(`A client with email '${email}' already exists in this organization`);
}

async function requireAttachablePlan(db: Executor, orgId: string, planId: string): Promise<void> {
  const plan = await findPlan(db, orgId, planId);
  if (!plan) throw invalid(`field 'plan_id': no plan ${planId} in this organization`);
  if (!plan.is_active) throw invalid(`field 'plan_id': plan ${planId} is not active and cannot be attached`);
}
