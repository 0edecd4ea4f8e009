// A verified Stripe event, read into the port's words: what it is about and the ids billing needs.
// Objects are read as the pinned API version shapes them, which is the version Sitewright's
// endpoints are made with (an invoice's subscription under `parent.subscription_details`, its
// price under `lines[].pricing.price_details`).
import type Stripe from 'stripe';
import type { EventSubject, ProcessorEvent, ProcessorInvoice } from '../../modules/billing/processor.ts';

export function readEvent(event: Stripe.Event): ProcessorEvent {
  return {
    id: event.id,
    type: event.type,
    livemode: event.livemode,
    account: event.account ?? null,
    subject: subjectOf(event),
  };
}

const idOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && 'id' in value
      ? String(value.id)
      : null;

function subjectOf(event: Stripe.Event): EventSubject {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      return {
        kind: 'checkout',
        clientId: session.client_reference_id ?? null,
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = event.data.object;
      return { kind: 'subscription', subscriptionId: sub.id, customerId: idOf(sub.customer) };
    }
    case 'invoice.paid':
      return { kind: 'invoice_paid', invoice: readInvoice(event.data.object) };
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      return {
        kind: 'invoice_failed',
        subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
        customerId: idOf(invoice.customer),
      };
    }
    default:
      return { kind: 'other' };
  }
}

function readInvoice(invoice: Stripe.Invoice): ProcessorInvoice {
  const line = invoice.lines?.data?.[0];
  const paidAt = invoice.status_transitions?.paid_at ?? invoice.created;
  return {
    id: invoice.id!,
    customerId: idOf(invoice.customer),
    subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
    priceId: idOf(line?.pricing?.price_details?.price),
    amount: invoice.amount_paid,
    currency: invoice.currency,
    paidAt: new Date(paidAt * 1000),
    hostedUrl: invoice.hosted_invoice_url ?? null,
  };
}
