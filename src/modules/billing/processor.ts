// The payment processor as the core sees it: the few calls billing makes, in the domain's words.
// The adapter (providers/stripe/) makes them with the official `stripe` library; the core never
// sees a Stripe object, a Stripe error or the wire format.

/** Whose account a call acts on: the agency's own key, a connected account, or the operator's. */
export type AccountRef = { key: string } | { account: string } | { platform: true };

export interface ProcessorAccount {
  id: string;
  name: string | null;
  livemode: boolean;
}

export interface ProcessorSubscription {
  id: string;
  customerId: string;
  /** The processor's own status: active, trialing, past_due, unpaid, canceled, incomplete, ... */
  status: string;
  priceId: string | null;
  itemId: string | null;
  currentPeriodEnd: Date | null;
  metadata: Record<string, string>;
  /** The subscription schedule it is attached to, if any. */
  scheduleId: string | null;
}

export interface ProcessorInvoice {
  id: string;
  customerId: string | null;
  subscriptionId: string | null;
  priceId: string | null;
  /** In the currency's minor unit, as the processor gives it. */
  amount: number;
  currency: string;
  paidAt: Date;
  hostedUrl: string | null;
}

/** What an event is about, read from its object; everything else is `other`. */
export type EventSubject =
  | { kind: 'checkout'; clientId: string | null; customerId: string | null; subscriptionId: string | null }
  | { kind: 'subscription'; subscriptionId: string; customerId: string | null }
  | { kind: 'invoice_paid'; invoice: ProcessorInvoice }
  | { kind: 'invoice_failed'; subscriptionId: string | null; customerId: string | null }
  | { kind: 'other' };

export interface ProcessorEvent {
  id: string;
  type: string;
  livemode: boolean;
  /** The connected account it happened on (Connect); null on the account's own endpoint. */
  account: string | null;
  subject: EventSubject;
}

export interface CheckoutRequest {
  customerId: string;
  priceId: string;
  clientId: string;
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
  /** Connect only: the operator's share of each invoice. */
  applicationFeePercent?: number | undefined;
}

/** The events billing needs, on every endpoint it creates. */
export const BILLING_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

export interface PaymentProcessor {
  /** Stripe Connect, when the operator configured it. */
  readonly connect: ConnectPlatform | undefined;
  account(ref: AccountRef): Promise<ProcessorAccount>;
  createWebhookEndpoint(
    ref: AccountRef,
    url: string,
    opts: { connect: boolean; description: string },
  ): Promise<{ id: string; secret: string; livemode: boolean }>;
  /** Gone already counts as deleted. */
  deleteWebhookEndpoint(ref: AccountRef, id: string): Promise<void>;
  createProduct(ref: AccountRef, product: ProductInput): Promise<string>;
  updateProduct(ref: AccountRef, id: string, product: ProductInput): Promise<void>;
  createPrice(ref: AccountRef, price: PriceInput): Promise<string>;
  archivePrice(ref: AccountRef, id: string): Promise<void>;
  createCustomer(ref: AccountRef, customer: CustomerInput): Promise<string>;
  updateCustomer(ref: AccountRef, id: string, customer: CustomerInput): Promise<void>;
  checkout(ref: AccountRef, request: CheckoutRequest): Promise<{ id: string; url: string; expiresAt: Date }>;
  /** Expires an earlier payment link: `complete` when it was paid already, `gone` when it cannot be used. */
  expireCheckout(ref: AccountRef, id: string): Promise<'expired' | 'complete' | 'gone'>;
  billingPortal(ref: AccountRef, customerId: string, returnUrl: string): Promise<string>;
  subscription(ref: AccountRef, id: string): Promise<ProcessorSubscription | undefined>;
  /**
   * The subscription bills `priceId` from its next renewal on, without proration. Same interval:
   * the item moves now (nothing is billed before the renewal). Another interval: a subscription
   * schedule keeps the current price to the end of the period, then the new one.
   */
  movePriceAtRenewal(
    ref: AccountRef,
    sub: ProcessorSubscription,
    to: { priceId: string; interval: 'monthly' | 'yearly'; intervalChanges: boolean },
  ): Promise<void>;
  /** Throws SignatureError when the body was not signed with `secret` (or too long ago). */
  verifyEvent(body: Buffer, signature: string | undefined, secret: string): ProcessorEvent;
}

export interface ConnectPlatform {
  /** The operator's share of each invoice, in percent; undefined: none. */
  readonly applicationFeePercent: number | undefined;
  authorizeUrl(state: string, redirectUri: string): string;
  /** The authorization code of the OAuth flow, for the connected account. */
  exchange(code: string): Promise<{ accountId: string; livemode: boolean }>;
  deauthorize(accountId: string): Promise<void>;
}

export interface ProductInput {
  name: string;
  description: string | null;
  active: boolean;
  metadata: Record<string, string>;
}

export interface PriceInput {
  productId: string;
  amount: number;
  currency: string;
  interval: 'monthly' | 'yearly';
  metadata: Record<string, string>;
}

export interface CustomerInput {
  email: string;
  name: string | null;
  metadata: Record<string, string>;
}

/** The processor refused a call or did not answer; the message is safe to show an owner. */
export class ProcessorError extends Error {
  override name = 'ProcessorError';
  constructor(
    message: string,
    /** The key was refused (wrong, revoked, or missing a permission). */
    readonly refusedKey = false,
  ) {
    super(message);
  }
}

/** A webhook body whose signature does not verify. */
export class SignatureError extends Error {
  override name = 'SignatureError';
}
