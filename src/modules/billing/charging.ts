// Charging a client: its one Customer on the connected account (made on first need, its email and
// name kept in step), a Checkout Session in subscription mode for its plan, the Billing Portal for
// a client that has a subscription, and the payments it made.
import { nowIso, toIso } from '../../lib/clock.ts';
import { conflict, invalid, notFound, upstream } from '../common/errors.ts';
import { findPlan } from '../plans/repo.ts';
import { findOrg } from '../orgs/repo.ts';
import { findClient, type ClientRow } from '../clients/repo.ts';
import { agencyOrg, requirePermission } from '../access/access.ts';
import type { Principal } from '../access/principal.ts';
import { processorCall, refOf, requireRef, type BillingDeps } from './context.ts';
import type { BillingCatalog } from './catalog.ts';
import type { AccountRef } from './processor.ts';
import * as repo from './repo.ts';
import type { CheckoutBody, CheckoutLink, Payment } from './schema.ts';
import { bool, num } from '../../db/executor.ts';
import { formatAmount, minorUnits } from './settings.ts';

const REFUSAL = "Billing clients is the agency's to do";
/** Subscription states that still bill: a client in one of them manages it in the Billing Portal. */
const RUNNING = ['active', 'trialing', 'past_due', 'unpaid', 'paused'];

export class BillingCharges {
  constructor(
    private readonly deps: BillingDeps,
    private readonly catalog: BillingCatalog,
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  /** A Checkout link for a client of the agency (the API, the dashboard). */
  async checkout(principal: Principal, clientId: string, body: CheckoutBody): Promise<CheckoutLink> {
    const orgId = agencyOrg(principal, 'write', REFUSAL);
    const successUrl =
      body.success_url === undefined ? undefined : returnUrl('success_url', body.success_url);
    const cancelUrl = body.cancel_url === undefined ? undefined : returnUrl('cancel_url', body.cancel_url);
    const client = await findClient(this.db, orgId, clientId);
    if (!client) throw notFound('Client');
    return this.checkoutFor(orgId, client, body.plan_id, successUrl, cancelUrl);
  }

  /** Mails the client a fresh payment link for its plan; answers the link (the dashboard shows where it went). */
  async sendLink(principal: Principal, clientId: string): Promise<CheckoutLink & { email: string }> {
    const link = await this.checkout(principal, clientId, {});
    const client = (await findClient(this.db, principal.orgId, clientId))!;
    const plan = client.plan_id ? await findPlan(this.db, principal.orgId, client.plan_id) : undefined;
    const org = (await findOrg(this.db, principal.orgId))?.name ?? 'Your agency';
    const { currency } = await repo.billingSettings(this.db, principal.orgId);
    const price = plan
      ? ` (${formatAmount(minorUnits(plan.price, currency), currency)} ${plan.interval === 'yearly' ? 'a year' : 'a month'})`
      : '';
    const until = link.expires_at.slice(0, 16).replace('T', ' ');
    if (!this.deps.mailer) throw conflict('No mail can be sent from here');
    try {
      await this.deps.mailer.send({
        to: client.email,
        subject: `Your payment link from ${org}`,
        text:
          `${client.name ? `Hello ${client.name},` : 'Hello,'}\n\n${org} sends you a secure payment page for ` +
          `${plan ? `your plan ${plan.name}${price}` : 'your plan'}, on Stripe:\n${link.url}\n\n` +
          `The link works until ${until} UTC. After paying you can manage your billing from your portal:\n` +
          `${this.portalUrl()}\n`,
      });
    } catch (error) {
      this.deps.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'billing: a payment link mail failed',
      );
      throw upstream('The payment link was made but the mail could not be sent; use Copy link instead');
    }
    return { ...link, email: client.email };
  }

  /** A client paying for itself from its portal: its own plan, back to its portal. */
  async portalCheckout(principal: Principal): Promise<CheckoutLink> {
    requirePermission(principal, 'read');
    const client = await this.ownClient(principal);
    return this.checkoutFor(principal.orgId, client, undefined, undefined, undefined);
  }

  /** The Billing Portal for a client with a subscription (cards, invoices, cancellation). */
  async portalSession(principal: Principal, clientId?: string): Promise<string> {
    const client =
      clientId === undefined
        ? await this.ownClient(principal)
        : await findClient(this.db, agencyOrg(principal, 'read', REFUSAL), clientId);
    if (!client) throw notFound('Client');
    const connection = await this.requireConnection(client.org_id);
    const customer = await repo.customerOfClient(this.db, connection.id, client.id);
    if (!customer) throw conflict('This client has no billing account yet: it pays once first');
    return processorCall(
      this.deps.processor.billingPortal(
        requireRef(this.deps, connection),
        customer.customer_id,
        this.portalUrl(),
      ),
    );
  }

  /** Whether the client has a running subscription (the portal shows Manage billing, else Pay). */
  async subscriptionOf(orgId: string, clientId: string): Promise<{ status: string } | undefined> {
    const connection = await repo.liveConnection(this.db, orgId);
    if (!connection) return undefined;
    const customer = await repo.customerOfClient(this.db, connection.id, clientId);
    if (!customer?.subscription_id || !customer.subscription_status) return undefined;
    return { status: customer.subscription_status };
  }

  async payments(
    principal: Principal,
    clientId: string,
    limit: number,
    offset: number,
  ): Promise<{ payments: Payment[]; total: number }> {
    requirePermission(principal, 'read');
    if (principal.clientId !== undefined && principal.clientId !== clientId) throw notFound('Client');
    const orgId = principal.orgId;
    if (!(await findClient(this.db, orgId, clientId))) throw notFound('Client');
    const rows = await repo.listPayments(this.db, orgId, clientId, limit, offset);
    const total = await repo.countPayments(this.db, orgId, clientId);
    return { payments: rows.map(toPayment), total };
  }

  private async ownClient(principal: Principal): Promise<ClientRow> {
    if (principal.clientId === undefined) throw notFound('Client');
    const client = await findClient(this.db, principal.orgId, principal.clientId);
    if (!client) throw notFound('Client');
    return client;
  }

  private async requireConnection(orgId: string) {
    const connection = await repo.liveConnection(this.db, orgId);
    if (!connection)
      throw conflict('Billing is not connected: an owner connects Stripe in Settings → Billing');
    return connection;
  }

  private portalUrl(): string {
    return `${new URL(this.deps.publicUrl).origin}/portal/billing`;
  }

  private async checkoutFor(
    orgId: string,
    client: ClientRow,
    planIdGiven: string | undefined,
    successUrl: string | undefined,
    cancelUrl: string | undefined,
  ): Promise<CheckoutLink> {
    const connection = await this.requireConnection(orgId);
    const ref = requireRef(this.deps, connection);
    const planId = planIdGiven ?? client.plan_id;
    if (!planId) throw invalid("field 'plan_id' is required: the client has no plan");
    const plan = await findPlan(this.db, orgId, planId);
    if (!plan) throw invalid(`field 'plan_id': no plan ${planId} in this organization`);
    if (!plan.is_active) throw invalid(`field 'plan_id': plan ${planId} is not active`);
    if (!(plan.price > 0)) throw invalid(`field 'plan_id': plan ${planId} is free; there is nothing to pay`);
    const customer = await repo.customerOfClient(this.db, connection.id, client.id);
    if (customer?.subscription_status && RUNNING.includes(customer.subscription_status))
      throw conflict(
        `The client already has a subscription (${customer.subscription_status}); it manages it in the billing portal`,
      );
    const priceId = await processorCall(this.catalog.syncPlan(orgId, plan.id));
    if (!priceId) throw upstream('The plan could not be made on Stripe; try again');
    const customerId = await processorCall(this.ensureCustomer(ref, connection.id, client));
    // One link open at a time: paying two links would start two subscriptions.
    const earlier = (await repo.customerOfClient(this.db, connection.id, client.id))?.checkout_session_id;
    if (earlier && (await processorCall(this.deps.processor.expireCheckout(ref, earlier))) === 'complete')
      throw conflict('The client has just paid; its subscription shows here in a moment');
    const metadata = {
      sitewright_org_id: orgId,
      sitewright_client_id: client.id,
      sitewright_plan_id: plan.id,
    };
    const portal = this.portalUrl();
    const link = await processorCall(
      this.deps.processor.checkout(ref, {
        customerId,
        priceId,
        clientId: client.id,
        successUrl: successUrl ?? `${portal}?checkout=done`,
        cancelUrl: cancelUrl ?? portal,
        metadata,
        applicationFeePercent:
          connection.method === 'connect' ? this.deps.processor.connect?.applicationFeePercent : undefined,
      }),
    );
    await repo.updateCustomer(this.db, connection.id, client.id, { checkout_session_id: link.id });
    return { url: link.url, expires_at: link.expiresAt.toISOString() };
  }

  /** The client's Customer, when it has one, takes the client's email and name now. */
  async syncCustomer(orgId: string, clientId: string): Promise<void> {
    const connection = await repo.liveConnection(this.db, orgId);
    const client = await findClient(this.db, orgId, clientId);
    if (!connection || !client) return;
    const known = await repo.customerOfClient(this.db, connection.id, clientId);
    const ref = refOf(this.deps, connection);
    if (known && ref) await this.deps.processor.updateCustomer(ref, known.customer_id, customerInput(client));
  }

  /** The client's Customer, made on first need; its email and name follow the client's. */
  private async ensureCustomer(ref: AccountRef, connectionId: string, client: ClientRow): Promise<string> {
    const input = customerInput(client);
    const known = await repo.customerOfClient(this.db, connectionId, client.id);
    if (known) {
      await this.deps.processor.updateCustomer(ref, known.customer_id, input);
      return known.customer_id;
    }
    const customerId = await this.deps.processor.createCustomer(ref, input);
    const kept = await repo.insertCustomer(this.db, {
      connection_id: connectionId,
      client_id: client.id,
      org_id: client.org_id,
      customer_id: customerId,
      updated_at: nowIso(),
    });
    if (kept) return customerId;
    // Two first checkouts at once: the Customer kept first is the client's.
    return (await repo.customerOfClient(this.db, connectionId, client.id))!.customer_id;
  }
}

function customerInput(client: ClientRow) {
  return {
    email: client.email,
    name: client.name ?? client.company,
    metadata: { sitewright_org_id: client.org_id, sitewright_client_id: client.id },
  };
}

export function toPayment(row: repo.PaymentRow): Payment {
  return {
    id: row.id,
    client_id: row.client_id,
    plan_id: row.plan_id,
    amount: num(row.amount),
    currency: row.currency,
    invoice_id: row.invoice_id,
    subscription_id: row.subscription_id,
    paid_at: toIso(row.paid_at),
    livemode: bool(row.livemode),
    hosted_invoice_url: row.hosted_invoice_url,
  };
}

function returnUrl(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`field '${field}' must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid(`field '${field}' must be an absolute http(s) URL`);
  return url.href;
}
