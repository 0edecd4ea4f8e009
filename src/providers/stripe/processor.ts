// The payment processor port (modules/billing/processor.ts) made with the official `stripe`
// library, pinned. Nothing of Stripe's wire format is written here: requests, retries, idempotency
// keys and webhook signatures are the library's. STRIPE_API_URL points it at a Stripe-compatible
// endpoint (a local mock, an egress proxy) through its `host`, `port` and `protocol` options.
import Stripe from 'stripe';
import {
  BILLING_EVENTS,
  ProcessorError,
  SignatureError,
  type AccountRef,
  type ConnectPlatform,
  type CustomerInput,
  type PaymentProcessor,
  type PriceInput,
  type ProcessorEvent,
  type ProcessorSubscription,
  type ProductInput,
} from '../../modules/billing/processor.ts';
import { readEvent } from './events.ts';

export interface StripeSettings {
  /** STRIPE_SECRET_KEY: the operator's platform key, for Stripe Connect. */
  secretKey: string | undefined;
  /** STRIPE_CONNECT_CLIENT_ID: Connect is offered when both are set. */
  connectClientId: string | undefined;
  /** STRIPE_APPLICATION_FEE_PERCENT, Connect only. */
  applicationFeePercent: number | undefined;
  /** STRIPE_API_URL; unset: Stripe's own API. */
  apiUrl: string | undefined;
}

type StripeOptions = ConstructorParameters<typeof Stripe>[1];

export function createStripeProcessor(settings: StripeSettings): PaymentProcessor {
  return new StripeProcessor(settings);
}

class StripeProcessor implements PaymentProcessor {
  readonly connect: ConnectPlatform | undefined;
  private readonly options: StripeOptions;
  private readonly clients = new Map<string, Stripe>();

  constructor(private readonly settings: StripeSettings) {
    this.options = { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'Sitewright' } };
    if (settings.apiUrl) {
      const url = new URL(settings.apiUrl);
      const protocol = url.protocol === 'http:' ? 'http' : 'https';
      const port = url.port ? Number(url.port) : protocol === 'http' ? 80 : 443;
      Object.assign(this.options!, { host: url.hostname, port, protocol });
    }
    if (settings.secretKey && settings.connectClientId) this.connect = this.connectPlatform();
  }

  /** One client per key (the library keeps its connection pool and settings there). */
  private client(key: string): Stripe {
    let client = this.clients.get(key);
    if (!client) {
      client = new Stripe(key, this.options);
      if (this.clients.size > 1_000) this.clients.clear();
      this.clients.set(key, client);
    }
    return client;
  }

  /** The client and per-request options for an account. */
  private on(ref: AccountRef): [Stripe, Stripe.RequestOptions] {
    if ('key' in ref) return [this.client(ref.key), {}];
    const platform = this.platformKey();
    if ('account' in ref) return [this.client(platform), { stripeAccount: ref.account }];
    return [this.client(platform), {}];
  }

  private platformKey(): string {
    if (!this.settings.secretKey)
      throw new ProcessorError('Stripe Connect is not configured (STRIPE_SECRET_KEY)');
    return this.settings.secretKey;
  }

  async account(ref: AccountRef) {
    const [stripe, options] = this.on(ref);
    const account = await call(() => stripe.accounts.retrieveCurrent({}, options));
    const name =
      account.settings?.dashboard?.display_name || account.business_profile?.name || account.email || null;
    const key = 'key' in ref ? ref.key : this.settings.secretKey!;
    return { id: account.id, name, livemode: /^[a-z]+_live_/.test(key) };
  }

  async createWebhookEndpoint(ref: AccountRef, url: string, opts: { connect: boolean; description: string }) {
    const [stripe, options] = this.on(ref);
    const endpoint = await call(() =>
      stripe.webhookEndpoints.create(
        {
          url,
          enabled_events: [...BILLING_EVENTS],
          // Events in the library's API version, the shapes events.ts reads (not the account's default).
          api_version: Stripe.API_VERSION,
          description: opts.description,
          ...(opts.connect ? { connect: true } : {}),
        },
        options,
      ),
    );
    return { id: endpoint.id, secret: endpoint.secret!, livemode: endpoint.livemode };
  }

  async deleteWebhookEndpoint(ref: AccountRef, id: string) {
    const [stripe, options] = this.on(ref);
    await call(() => stripe.webhookEndpoints.del(id, {}, options), { missingIsDone: true });
  }

  async createProduct(ref: AccountRef, product: ProductInput) {
    const [stripe, options] = this.on(ref);
    const made = await call(() => stripe.products.create(productParams(product), options));
    return made.id;
  }

  async updateProduct(ref: AccountRef, id: string, product: ProductInput) {
    const [stripe, options] = this.on(ref);
    await call(() =>
      stripe.products.update(
        id,
        { ...productParams(product), description: product.description ?? '' },
        options,
      ),
    );
  }

  async createPrice(ref: AccountRef, price: PriceInput) {
    const [stripe, options] = this.on(ref);
    const made = await call(() =>
      stripe.prices.create(
        {
          product: price.productId,
          unit_amount: price.amount,
          currency: price.currency,
          recurring: { interval: price.interval === 'yearly' ? 'year' : 'month' },
          metadata: price.metadata,
        },
        options,
      ),
    );
    return made.id;
  }

  async archivePrice(ref: AccountRef, id: string) {
    const [stripe, options] = this.on(ref);
    await call(() => stripe.prices.update(id, { active: false }, options), { missingIsDone: true });
  }

  async createCustomer(ref: AccountRef, customer: CustomerInput) {
    const [stripe, options] = this.on(ref);
    const made = await call(() => stripe.customers.create(customerParams(customer), options));
    return made.id;
  }

  async updateCustomer(ref: AccountRef, id: string, customer: CustomerInput) {
    const [stripe, options] = this.on(ref);
    await call(() => stripe.customers.update(id, customerParams(customer), options));
  }

  async checkout(ref: AccountRef, request: Parameters<PaymentProcessor['checkout']>[1]) {
    const [stripe, options] = this.on(ref);
    const session = await call(() =>
      stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: request.customerId,
          client_reference_id: request.clientId,
          line_items: [{ price: request.priceId, quantity: 1 }],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          metadata: request.metadata,
          subscription_data: {
            metadata: request.metadata,
            ...(request.applicationFeePercent
              ? { application_fee_percent: request.applicationFeePercent }
              : {}),
          },
        },
        options,
      ),
    );
    if (!session.url) throw new ProcessorError('Stripe made a checkout session without a URL');
    return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
  }

  async expireCheckout(ref: AccountRef, id: string): Promise<'expired' | 'complete' | 'gone'> {
    const [stripe, options] = this.on(ref);
    try {
      await stripe.checkout.sessions.expire(id, {}, options);
      return 'expired';
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError))
        return call(() => Promise.reject(error));
      // Not open any more: paid, or expired already (or unknown, which is as good as expired).
      const session = await call(() => stripe.checkout.sessions.retrieve(id, {}, options), {
        missingIsDone: true,
      });
      return session?.status === 'complete' ? 'complete' : 'gone';
    }
  }

  async billingPortal(ref: AccountRef, customerId: string, returnUrl: string) {
    const [stripe, options] = this.on(ref);
    const session = await call(() =>
      stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }, options),
    );
    return session.url;
  }

  async subscription(ref: AccountRef, id: string): Promise<ProcessorSubscription | undefined> {
    const [stripe, options] = this.on(ref);
    const sub = await call(() => stripe.subscriptions.retrieve(id, {}, options), { missingIsDone: true });
    if (!sub) return undefined;
    const item = sub.items.data[0];
    return {
      id: sub.id,
      customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
      status: sub.status,
      priceId: item?.price.id ?? null,
      itemId: item?.id ?? null,
      currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
      metadata: sub.metadata ?? {},
      scheduleId: sub.schedule ? (typeof sub.schedule === 'string' ? sub.schedule : sub.schedule.id) : null,
    };
  }

  async movePriceAtRenewal(
    ref: AccountRef,
    sub: ProcessorSubscription,
    {
      priceId,
      interval,
      intervalChanges,
    }: { priceId: string; interval: 'monthly' | 'yearly'; intervalChanges: boolean },
  ) {
    const [stripe, options] = this.on(ref);
    if (!intervalChanges && sub.itemId && !sub.scheduleId) {
      // No proration: the period already paid stays as it was, the next invoice bills the new price.
      await call(() =>
        stripe.subscriptions.update(
          sub.id,
          { items: [{ id: sub.itemId!, price: priceId }], proration_behavior: 'none' },
          options,
        ),
      );
      return;
    }
    // An interval change would restart the billing cycle at once on Stripe: a schedule keeps the
    // current phase to its end, then one phase on the new price, then releases the subscription.
    const schedule = await call(() =>
      sub.scheduleId
        ? stripe.subscriptionSchedules.retrieve(sub.scheduleId, {}, options)
        : stripe.subscriptionSchedules.create({ from_subscription: sub.id }, options),
    );
    const current =
      schedule.phases.find((phase) => phase.end_date > Date.now() / 1000) ?? schedule.phases[0]!;
    const idOf = (price: string | { id: string }) => (typeof price === 'string' ? price : price.id);
    await call(() =>
      stripe.subscriptionSchedules.update(
        schedule.id,
        {
          end_behavior: 'release',
          phases: [
            {
              items: current.items.map((item) => ({ price: idOf(item.price), quantity: item.quantity ?? 1 })),
              start_date: current.start_date,
              end_date: current.end_date,
            },
            {
              items: [{ price: priceId, quantity: 1 }],
              proration_behavior: 'none',
              duration: { interval: interval === 'yearly' ? 'year' : 'month', interval_count: 1 },
            },
          ],
        },
        options,
      ),
    );
  }

  verifyEvent(body: Buffer, signature: string | undefined, secret: string): ProcessorEvent {
    if (!signature) throw new SignatureError('the Stripe-Signature header is missing');
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(body, signature, secret);
    } catch (error) {
      throw new SignatureError(error instanceof Error ? error.message : 'the signature does not verify');
    }
    return readEvent(event);
  }

  private connectPlatform(): ConnectPlatform {
    const clientId = this.settings.connectClientId!;
    const stripe = () => this.client(this.platformKey());
    return {
      applicationFeePercent: this.settings.applicationFeePercent,
      authorizeUrl: (state, redirectUri) =>
        stripe().oauth.authorizeUrl({
          client_id: clientId,
          response_type: 'code',
          scope: 'read_write',
          state,
          redirect_uri: redirectUri,
        }),
      exchange: async (code) => {
        const token = await call(() => stripe().oauth.token({ grant_type: 'authorization_code', code }));
        if (!token.stripe_user_id) throw new ProcessorError('Stripe did not name the connected account');
        return { accountId: token.stripe_user_id, livemode: token.livemode === true };
      },
      deauthorize: async (accountId) => {
        await call(() => stripe().oauth.deauthorize({ client_id: clientId, stripe_user_id: accountId }), {
          missingIsDone: true,
        });
      },
    };
  }
}

function productParams(product: ProductInput) {
  return {
    name: product.name,
    active: product.active,
    metadata: product.metadata,
    ...(product.description ? { description: product.description } : {}),
  };
}

function customerParams(customer: CustomerInput) {
  return { email: customer.email, name: customer.name ?? '', metadata: customer.metadata };
}

/** A library call, its errors in the port's words (never the key, never Stripe's objects). */
async function call<T>(run: () => Promise<T>, opts: { missingIsDone?: boolean } = {}): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    if (opts.missingIsDone && error.statusCode === 404) return undefined as T;
    if (error instanceof Stripe.errors.StripeAuthenticationError)
      throw new ProcessorError('Stripe refused the key (wrong, expired or revoked)', true);
    if (error instanceof Stripe.errors.StripePermissionError)
      throw new ProcessorError(`the key lacks a permission Sitewright needs: ${safe(error.message)}`, true);
    if (error instanceof Stripe.errors.StripeConnectionError)
      throw new ProcessorError('Stripe could not be reached; try again in a moment');
    if (error.type === 'StripeInvalidGrantError')
      throw new ProcessorError('Stripe refused the authorization (it expired or was used); connect again');
    throw new ProcessorError(`Stripe refused the call: ${safe(error.message)}`);
  }
}

/** Stripe's messages may quote a key ("Invalid API Key provided: rk_test_****abcd"): never repeat one. */
function safe(message: string): string {
  return message.replace(/\b(sk|rk|pk|whsec)_[A-Za-z0-9_*]+/g, '[key]').slice(0, 300);
}
