// Client billing, as every way in calls it: the organization's Stripe connection, its settings,
// plans kept in step, checkout and portal links, the processor's events and the payments.
import { toIso } from '../../lib/clock.ts';
import { bool } from '../../db/executor.ts';
import type { Payment } from './schema.ts';
import { agencyOrg, ownerOrg } from '../access/access.ts';
import type { Principal } from '../access/principal.ts';
import type { ClientsService } from '../clients/service.ts';
import { BillingAutomations, type SiteControls } from './automations.ts';
import { BillingCatalog } from './catalog.ts';
import { BillingCharges } from './charging.ts';
import { BillingConnections, type Connected } from './connections.ts';
import type { BillingConnection } from './schema.ts';
import type { BillingDeps } from './context.ts';
import { ProcessorEvents, type Handled } from './processor-events.ts';
import * as repo from './repo.ts';
import { checkBillingSettings, type BillingSettings } from './settings.ts';

export interface BillingActivity {
  action: string;
  detail: string | null;
  created_at: string;
}

/** Billing as a client's page shows it. */
export interface ClientBilling {
  connected: { livemode: boolean } | null;
  /** The processor's own status (unpaid says "retries exhausted"); null: no subscription. */
  subscription: { status: string; current_period_end: string | null } | null;
  payments: Payment[];
  paymentCount: number;
  activity: BillingActivity[];
}

export class BillingService {
  readonly connections: BillingConnections;
  readonly charges: BillingCharges;
  readonly automations: BillingAutomations;
  private readonly catalog: BillingCatalog;
  private readonly events: ProcessorEvents;

  constructor(
    private readonly deps: BillingDeps,
    clients: ClientsService,
    sites: SiteControls,
  ) {
    this.connections = new BillingConnections(deps);
    this.catalog = new BillingCatalog(deps);
    this.charges = new BillingCharges(deps, this.catalog);
    this.events = new ProcessorEvents(deps);
    this.automations = new BillingAutomations(deps, clients, sites);
  }

  private get db() {
    return this.deps.database.db;
  }

  /** Connects the agency's own key (Settings → Billing), then mirrors its plans on the account. */
  async connectKey(principal: Principal, key: string): Promise<Connected> {
    const connected = await this.connections.connectKey(principal, key);
    await this.syncPlans(principal.orgId);
    return connected;
  }

  /** The end of Connect with Stripe, then the plans mirrored on the connected account. */
  async finishConnect(principal: Principal, code: string, state: string): Promise<BillingConnection> {
    const connection = await this.connections.finishConnect(principal, code, state);
    await this.syncPlans(principal.orgId);
    return connection;
  }

  /** The currency the organization's plans are billed in (shown to its clients). */
  async currencyOf(orgId: string): Promise<string> {
    return (await repo.billingSettings(this.db, orgId)).currency;
  }

  async settings(principal: Principal): Promise<BillingSettings> {
    const orgId = agencyOrg(principal, 'read', "Billing is the agency's");
    return await repo.billingSettings(this.db, orgId);
  }

  async updateSettings(principal: Principal, change: Partial<BillingSettings>): Promise<BillingSettings> {
    const orgId = ownerOrg(principal);
    const checked = checkBillingSettings(change);
    const current = await repo.billingSettings(this.db, orgId);
    const next = { ...current, ...checked };
    await repo.writeSettingsJson(this.db, orgId, JSON.stringify(next));
    if (next.currency !== current.currency) await this.syncPlans(orgId);
    return next;
  }

  /** Mirrors every plan on the account (after connecting, or a currency change); failures are logged. */
  async syncPlans(orgId: string): Promise<void> {
    try {
      await this.catalog.syncAll(orgId);
    } catch (error) {
      this.warn(error, orgId, 'billing: plans could not be mirrored on Stripe (checkout retries)');
    }
  }

  /** A plan was created or edited: its Product and Price follow (checkout retries on failure). */
  async planChanged(orgId: string, planId: string): Promise<void> {
    try {
      await this.catalog.syncPlan(orgId, planId);
    } catch (error) {
      this.warn(error, orgId, 'billing: a plan could not be mirrored on Stripe (checkout retries)');
    }
  }

  /** A client's name changed: its Customer follows (a failure is logged; the next link sends it again). */
  async clientChanged(orgId: string, clientId: string): Promise<void> {
    try {
      await this.charges.syncCustomer(orgId, clientId);
    } catch (error) {
      this.warn(error, orgId, 'billing: a client’s Stripe Customer could not be updated');
    }
  }

  /** An event on `/webhooks/stripe/{connectionId}`, then the automations it calls for. */
  async receive(connectionId: string, body: Buffer, signature: string | undefined): Promise<Handled> {
    const handled = await this.events.receive(connectionId, body, signature);
    await this.automations.after(handled.changes);
    return handled;
  }

  /** An event on `/webhooks/stripe/connect`. */
  async receiveConnect(body: Buffer, signature: string | undefined): Promise<Handled> {
    const handled = await this.events.receiveConnect(body, signature);
    await this.automations.after(handled.changes);
    return handled;
  }

  /** The billing part of a client's page: its subscription, payments and what billing did. */
  async clientBilling(principal: Principal, clientId: string): Promise<ClientBilling> {
    const orgId = agencyOrg(principal, 'read', "Billing is the agency's");
    const connection = await repo.liveConnection(this.db, orgId);
    const customer = connection ? await repo.customerOfClient(this.db, connection.id, clientId) : undefined;
    const { payments, total } = await this.charges.payments(principal, clientId, 20, 0);
    return {
      connected: connection ? { livemode: bool(connection.livemode) } : null,
      subscription:
        customer?.subscription_id && customer.subscription_status
          ? {
              status: customer.subscription_status,
              current_period_end: customer.current_period_end ? toIso(customer.current_period_end) : null,
            }
          : null,
      payments,
      paymentCount: total,
      activity: await this.activity(principal, clientId),
    };
  }

  /** What billing did to a client, newest first (its page lists it). */
  async activity(principal: Principal, clientId: string, limit = 20): Promise<BillingActivity[]> {
    const orgId = agencyOrg(principal, 'read', "Billing is the agency's");
    const rows = await repo.listActivity(this.db, orgId, clientId, limit);
    return rows.map((row) => ({ action: row.action, detail: row.detail, created_at: toIso(row.created_at) }));
  }

  private warn(error: unknown, orgId: string, message: string): void {
    this.deps.logger?.warn(
      { err: error instanceof Error ? error.message : String(error), org: orgId },
      message,
    );
  }
}
