// Events from the payment processor, as its webhook delivers them: verified with the library's
// signature check, recorded by id and handled once, and order-independent. A subscription is
// always re-read from the processor, so an old `customer.subscription.updated` arriving last
// cannot undo a newer state. The client's payment_status and plan follow the subscription, each
// change a `client.updated` with previous_attributes; a paid invoice is a payment and a
// `payment.received`.
import { bool } from '../../db/executor.ts';
import type { Executor } from '../../db/executor.ts';
import { isUuid, newId } from '../../lib/ids.ts';
import { nowIso, toIso } from '../../lib/clock.ts';
import { recordEvent } from '../../events/outbox.ts';
import { invalid, notFound, upstream } from '../common/errors.ts';
import { findClient, toClient } from '../clients/repo.ts';
import { platformContext, processorCall, refOf, webhookContext, type BillingDeps } from './context.ts';
import {
  SignatureError,
  type ProcessorEvent,
  type ProcessorInvoice,
  type ProcessorSubscription,
} from './processor.ts';
import * as repo from './repo.ts';
import { toPayment } from './charging.ts';

/** payment_status from the processor's subscription status (issue 28's table). */
export function paymentStatusOf(
  status: string | null | undefined,
): 'none' | 'active' | 'past_due' | 'canceled' {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
    case 'paused':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return 'none';
  }
}

const ENDED = ['canceled', 'incomplete_expired'];
/** The states payment_status calls past_due (the past-due automation counts days in them). */
const PAST_DUE = ['past_due', 'unpaid', 'paused'];

/** What an event changed for one client: the automations act on it after the commit. */
export interface ClientChange {
  orgId: string;
  clientId: string;
  before: string;
  after: string;
  /** A payment was recorded: the client's first when `firstPayment`. */
  paid: boolean;
  firstPayment: boolean;
}

export interface Handled {
  outcome: 'handled' | 'replay' | 'ignored';
  changes: ClientChange[];
}

export class ProcessorEvents {
  constructor(private readonly deps: BillingDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /** An event on an account's own endpoint (`/webhooks/stripe/{connection id}`). */
  async receive(connectionId: string, body: Buffer, signature: string | undefined): Promise<Handled> {
    const connection = isUuid(connectionId)
      ? await repo.liveConnectionById(this.db, connectionId)
      : undefined;
    if (!connection || connection.method !== 'key') throw notFound('Billing connection');
    const secret = connection.webhook_secret_sealed
      ? this.deps.secrets?.open(connection.webhook_secret_sealed, webhookContext(connection.id))
      : undefined;
    if (!secret) throw upstream('The signing secret of this connection cannot be read; reconnect billing');
    const event = this.verify(body, signature, [secret]);
    return this.handle(connection, event);
  }

  /** An event on the operator's Connect endpoint, routed by the account it happened on. */
  async receiveConnect(body: Buffer, signature: string | undefined): Promise<Handled> {
    const platforms = await repo.platformEndpoints(this.db);
    const secrets = platforms
      .map((p) => this.deps.secrets?.open(p.webhook_secret_sealed, platformContext(p.account_id, p.livemode)))
      .filter((s): s is string => s !== undefined);
    if (secrets.length === 0) throw notFound('Stripe Connect endpoint');
    const event = this.verify(body, signature, secrets);
    const connection = event.account
      ? await repo.liveConnectionOfAccount(this.db, event.account, event.livemode)
      : undefined;
    if (!connection) return { outcome: 'ignored', changes: [] };
    return this.handle(connection, event);
  }

  private verify(body: Buffer, signature: string | undefined, secrets: string[]): ProcessorEvent {
    let refusal = 'the signature does not verify';
    for (const secret of secrets) {
      try {
        return this.deps.processor.verifyEvent(body, signature, secret);
      } catch (error) {
        if (!(error instanceof SignatureError)) throw error;
        refusal = error.message;
      }
    }
    throw invalid(`Stripe-Signature: ${refusal}`);
  }

  private async handle(connection: repo.ConnectionRow, event: ProcessorEvent): Promise<Handled> {
    // A live event never changes a test connection's clients, and the reverse.
    if (event.livemode !== bool(connection.livemode)) return { outcome: 'ignored', changes: [] };
    if (await repo.eventSeen(this.db, connection.id, event.id)) return { outcome: 'replay', changes: [] };
    const ref = refOf(this.deps, connection);
    if (!ref) throw upstream('The key of this connection cannot be read; reconnect billing');
    const subject = event.subject;
    const subscriptionId =
      subject.kind === 'checkout' || subject.kind === 'subscription' || subject.kind === 'invoice_failed'
        ? subject.subscriptionId
        : subject.kind === 'invoice_paid'
          ? subject.invoice.subscriptionId
          : null;
    // Read before the transaction: the processor's present state, whatever the event says (a 502
    // when it cannot be read: Stripe delivers again). When two events race, the state read last
    // wins (read_at), whichever commits first.
    const readAt = new Date().toISOString();
    const subscription = subscriptionId
      ? await processorCall(this.deps.processor.subscription(ref, subscriptionId))
      : undefined;
    return this.deps.database.transaction(async (trx) => {
      const fresh = await repo.recordProcessorEvent(trx, {
        connection_id: connection.id,
        event_id: event.id,
        type: event.type,
        received_at: nowIso(),
      });
      if (!fresh) return { outcome: 'replay', changes: [] };
      const changes: ClientChange[] = [];
      if (subject.kind === 'checkout' && subject.clientId && subject.customerId)
        await this.linkCustomer(trx, connection, subject.clientId, subject.customerId);
      let payment: { clientId: string; first: boolean } | undefined;
      if (subject.kind === 'invoice_paid')
        payment = await this.recordPayment(trx, connection, subject.invoice);
      if (subscription) {
        const change = await this.applySubscription(trx, connection, subscription, readAt);
        if (change) changes.push(change);
      }
      if (payment) {
        const known = changes.find((c) => c.clientId === payment.clientId);
        if (known) Object.assign(known, { paid: true, firstPayment: payment.first });
        else {
          const client = await findClient(trx, connection.org_id, payment.clientId);
          const status = client?.payment_status ?? 'none';
          changes.push({
            orgId: connection.org_id,
            clientId: payment.clientId,
            before: status,
            after: status,
            paid: true,
            firstPayment: payment.first,
          });
        }
      }
      return { outcome: 'handled', changes };
    });
  }

  /** A Checkout completed for a client of this organization: its Customer is the one it paid with. */
  private async linkCustomer(
    trx: Executor,
    connection: repo.ConnectionRow,
    clientId: string,
    customerId: string,
  ) {
    if (!isUuid(clientId) || !(await findClient(trx, connection.org_id, clientId))) return;
    if (await repo.customerById(trx, connection.id, customerId)) return;
    const known = await repo.customerOfClient(trx, connection.id, clientId, true);
    if (known)
      await repo.updateCustomer(trx, connection.id, clientId, {
        customer_id: customerId,
        updated_at: nowIso(),
      });
    else
      await repo.insertCustomer(trx, {
        connection_id: connection.id,
        client_id: clientId,
        org_id: connection.org_id,
        customer_id: customerId,
        updated_at: nowIso(),
      });
  }

  private async recordPayment(
    trx: Executor,
    connection: repo.ConnectionRow,
    invoice: ProcessorInvoice,
  ): Promise<{ clientId: string; first: boolean } | undefined> {
    const customer = invoice.customerId
      ? await repo.customerById(trx, connection.id, invoice.customerId)
      : undefined;
    if (!customer) return undefined;
    const price = invoice.priceId ? await repo.priceById(trx, connection.id, invoice.priceId) : undefined;
    const row = {
      id: newId(),
      org_id: connection.org_id,
      client_id: customer.client_id,
      connection_id: connection.id,
      plan_id: price?.plan_id ?? null,
      invoice_id: invoice.id,
      subscription_id: invoice.subscriptionId,
      amount: invoice.amount,
      currency: invoice.currency,
      livemode: bool(connection.livemode),
      hosted_invoice_url: invoice.hostedUrl,
      paid_at: invoice.paidAt.toISOString(),
      created_at: nowIso(),
    };
    // The same invoice twice (two events naming it) is one payment.
    if (!(await repo.insertPayment(trx, row))) return undefined;
    const payment = toPayment(row as repo.PaymentRow);
    await recordEvent(trx, { orgId: connection.org_id, type: 'payment.received', data: { payment } });
    const count = await repo.countPayments(trx, connection.org_id, customer.client_id);
    return { clientId: customer.client_id, first: count === 1 };
  }

  /** The subscription as the processor has it now, onto the client's record. */
  private async applySubscription(
    trx: Executor,
    connection: repo.ConnectionRow,
    sub: ProcessorSubscription,
    readAt: string,
  ): Promise<ClientChange | undefined> {
    // The customer's row is locked until the commit: events of one client apply one at a time,
    // each reading the client as the previous one left it.
    const known = await repo.customerById(trx, connection.id, sub.customerId, true);
    const clientId = known?.client_id ?? sub.metadata.sitewright_client_id;
    if (!clientId || !isUuid(clientId)) return undefined;
    const customer = known ?? (await repo.customerOfClient(trx, connection.id, clientId, true));
    if (!customer || customer.customer_id !== sub.customerId) return undefined;
    if (customer.read_at && toIso(customer.read_at) > readAt) return undefined;
    // An ended subscription does not replace a newer one the client has started since.
    if (customer.subscription_id && customer.subscription_id !== sub.id && ENDED.includes(sub.status))
      return undefined;
    const now = nowIso();
    const pastDue = PAST_DUE.includes(sub.status);
    await repo.updateCustomer(trx, connection.id, clientId, {
      subscription_id: sub.id,
      subscription_status: sub.status,
      price_id: sub.priceId,
      current_period_end: sub.currentPeriodEnd?.toISOString() ?? null,
      past_due_since: pastDue ? (customer.past_due_since ? toIso(customer.past_due_since) : now) : null,
      ...(pastDue ? {} : { past_due_acted_at: null }),
      read_at: readAt,
      updated_at: now,
    });
    const client = await findClient(trx, connection.org_id, clientId);
    if (!client) return undefined;
    const price = sub.priceId ? await repo.priceById(trx, connection.id, sub.priceId) : undefined;
    const changes: { payment_status?: string; plan_id?: string | null } = {};
    const paymentStatus = paymentStatusOf(sub.status);
    if (paymentStatus !== client.payment_status) changes.payment_status = paymentStatus;
    if (price && price.plan_id !== client.plan_id) changes.plan_id = price.plan_id;
    const before = client.payment_status;
    if (Object.keys(changes).length > 0) {
      await repo.setClientBilling(trx, connection.org_id, clientId, { ...changes, updated_at: now });
      const previous_attributes = Object.fromEntries(
        Object.keys(changes).map((k) => [k, client[k as keyof typeof changes]]),
      );
      const updated = toClient({ ...client, ...changes, updated_at: now });
      await recordEvent(trx, {
        orgId: connection.org_id,
        type: 'client.updated',
        data: { client: updated, previous_attributes },
      });
    }
    return {
      orgId: connection.org_id,
      clientId,
      before,
      after: paymentStatus,
      paid: false,
      firstPayment: false,
    };
  }
}
