// A fake of Stripe's HTTP API on loopback, for offline billing tests. The code under test reaches it
// only through the official `stripe` client (host 127.0.0.1, the fake's port, plain http), so the
// library's own encoding, headers and error mapping are exercised. It records every request and
// answers the endpoints our billing feature uses as Stripe does, keeping each object per account
// (an id of another account is a 404, as on Stripe). Scenario helpers build subscriptions,
// invoices and signed webhook events the way the 2026-10-28.endive API shapes them.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export type Json = Record<string, any>;

export interface FakeRequest {
  method: string;
  path: string;
  body: Json;
  query: Json;
  /** The Stripe-Account header, or null. */
  account: string | null;
  key: string | null;
}

export type FakeAccount = { id: string; livemode: boolean };

type EventOptions = { account?: string; livemode?: boolean; created?: number };
type Route = (account: FakeAccount, body: Json, id: string) => Json;

const API_VERSION = '2026-10-28.endive';
const KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `prefix` and random base62 characters, like Stripe's ids. */
export function randomId(prefix: string, length = 14): string {
  return prefix + [...randomBytes(length)].map((b) => BASE62[b % 62]).join('');
}

const now = () => Math.floor(Date.now() / 1000);

/**
 * Parses the library's form encoding (`a[0][b]=1&m[k]=v`) into nested objects; numeric bracket
 * keys make arrays, as Stripe reads them.
 */
export function parseForm(text: string): Json {
  const root: Json = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const keys = [...name.matchAll(/^[^[]+|\[([^\]]*)\]/g)].map((m) => m[1] ?? m[0]);
    // No key may reach Object.prototype, even in a fake.
    if (keys.length === 0 || keys.includes('__proto__')) continue;
    let node: any = root;
    keys.forEach((key, i) => {
      const slot = key === '' && Array.isArray(node) ? node.length : key;
      if (i === keys.length - 1) node[slot] = value;
      else node = node[slot] ??= /^\d*$/.test(keys[i + 1]!) ? [] : {};
    });
  }
  return root;
}

/** An error answer, thrown from anywhere in a route. */
class Answer extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    // The body as message, for a scenario helper's mistake.
    super(`stripe fake ${status}: ${JSON.stringify(body)}`);
  }
}

const invalid = (message: string, status = 400, extra: Json = {}) =>
  new Answer(status, { error: { type: 'invalid_request_error', message, ...extra } });

const missing = (kind: string, id: string) =>
  invalid(`No such ${kind}: '${id}'`, 404, { code: 'resource_missing', param: 'id' });

function need(body: Json, param: string): any {
  if (body[param] === undefined || body[param] === '')
    throw invalid(`Missing required param: ${param}.`, 400, { code: 'parameter_missing', param });
  return body[param];
}

/** Stripe merges metadata on update; an empty value removes the key. */
function metadata(old: Json = {}, update: Json = {}): Json {
  const merged = { ...old, ...update };
  for (const [k, v] of Object.entries(merged)) if (v === '') delete merged[k];
  return merged;
}

const bool = (value: unknown, fallback: boolean) => (value === undefined ? fallback : value === 'true');

function addInterval(at: number, interval: string): number {
  const date = new Date(at * 1000);
  if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return Math.floor(date.getTime() / 1000);
}

const HOSTED: Record<string, string> = { 'c/pay': 'Checkout', 'p/session': 'Billing Portal', i: 'Invoice' };

export class FakeStripe {
  readonly requests: FakeRequest[] = [];
  readonly accounts = new Map<string, FakeAccount>();
  readonly revokedKeys = new Set<string>();
  readonly webhookEndpoints = new Map<string, Json>();
  readonly products = new Map<string, Json>();
  readonly prices = new Map<string, Json>();
  readonly customers = new Map<string, Json>();
  readonly checkoutSessions = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  readonly subscriptionSchedules = new Map<string, Json>();
  /** GET /v1/account's business and dashboard name, and email. */
  accountName = 'Fake Agency';
  accountEmail = 'billing@example.com';
  port = 0;
  /** The fake's origin, known once started. */
  url = '';
  /** Where checkout, portal and invoice pages live (default: the fake's origin, which serves them). */
  checkoutBase = '';
  /** Object id -> its account id: kept apart so the objects serialize as Stripe's do. */
  private readonly owners = new Map<string, string>();
  /** API keys and issued access tokens -> account id; OAuth codes -> account id. */
  private readonly keys = new Map<string, string>();
  private readonly codes = new Map<string, string>();
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
    this.checkoutBase ||= this.url;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  get clientOptions() {
    return { host: '127.0.0.1', port: this.port, protocol: 'http' as const };
  }

  find(method: string, pathPrefix: string): FakeRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix));
  }

  /** The account id a key acts on (created on first use, like every account here). */
  accountFor(key: string): string {
    let id = this.keys.get(key);
    if (!id) this.keys.set(key, (id = this.ensureAccount(randomId('acct_', 16), key.includes('_live_')).id));
    return id;
  }

  accountOf(objectId: string): string | undefined {
    return this.owners.get(objectId);
  }

  /** A code that POST /oauth/token exchanges once, for `accountId` (default: a new account). */
  issueConnectCode(accountId = randomId('acct_', 16)): string {
    this.ensureAccount(accountId, false);
    const code = randomId('ac_', 24);
    this.codes.set(code, accountId);
    return code;
  }

  subscribe(options: { account: string; customer: string; price: string; status?: string; metadata?: Json }) {
    const account = this.ensureAccount(options.account, false);
    this.lookup(this.customers, 'customer', options.customer, account);
    const price = this.lookup(this.prices, 'price', options.price, account);
    const start = now();
    const end = addInterval(start, price.recurring?.interval);
    const item = { id: randomId('si_'), object: 'subscription_item', price, quantity: 1 };
    return this.save(this.subscriptions, account, randomId('sub_'), {
      object: 'subscription',
      customer: options.customer,
      status: options.status ?? 'active',
      metadata: options.metadata ?? {},
      cancel_at_period_end: false,
      currency: price.currency,
      created: start,
      items: { object: 'list', data: [{ ...item, current_period_start: start, current_period_end: end }] },
      latest_invoice: null,
    });
  }

  setSubscriptionStatus(id: string, status: string): Json {
    return Object.assign(this.subscription(id), { status });
  }

  /** Moves every item's billing period forward one interval. */
  renew(id: string): Json {
    const subscription = this.subscription(id);
    for (const item of subscription.items.data) {
      item.current_period_start = item.current_period_end;
      item.current_period_end = addInterval(item.current_period_end, item.price.recurring?.interval);
    }
    return subscription;
  }

  /** An invoice of the current period, as the 2026 API shapes it (`parent`, `pricing`). */
  invoice(options: { account: string; subscription: string; amount?: number; paid?: boolean }): Json {
    const subscription = this.subscription(options.subscription);
    if (this.owners.get(subscription.id) !== options.account) throw new Error('not the account’s');
    const item = subscription.items.data[0];
    const { price } = item;
    const period = { start: item.current_period_start, end: item.current_period_end };
    const amount = options.amount ?? price.unit_amount * item.quantity;
    const paid = options.paid ?? true;
    const id = (subscription.latest_invoice = randomId('in_', 24));
    const line = { id: randomId('il_', 24), object: 'line_item', amount, currency: price.currency };
    const pricing = { type: 'price_details', price_details: { price: price.id, product: price.product } };
    return {
      id,
      object: 'invoice',
      customer: subscription.customer,
      currency: price.currency,
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      status: paid ? 'paid' : 'open',
      livemode: subscription.livemode,
      created: now(),
      hosted_invoice_url: `${this.checkoutBase}/i/${id}`,
      status_transitions: { paid_at: paid ? now() : null },
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
      },
      lines: { object: 'list', data: [{ ...line, period, pricing }] },
    };
  }

  event(type: string, object: Json, options: EventOptions = {}) {
    return {
      id: randomId('evt_', 24),
      object: 'event',
      api_version: API_VERSION,
      created: options.created ?? now(),
      livemode: options.livemode ?? object.livemode === true,
      type,
      ...(options.account ? { account: options.account } : {}),
      data: { object },
    };
  }

  private ensureAccount(id: string, livemode: boolean): FakeAccount {
    let account = this.accounts.get(id);
    if (!account) this.accounts.set(id, (account = { id, livemode }));
    return account;
  }

  /** Creates, or updates in place, the account's object `id`. */
  private save(map: Map<string, Json>, account: FakeAccount, id: string, fields: Json): Json {
    const object = Object.assign(map.get(id) ?? { id }, fields, { livemode: account.livemode });
    map.set(object.id, object);
    this.owners.set(object.id, account.id);
    return object;
  }

  private lookup(map: Map<string, Json>, kind: string, id: string, account: FakeAccount): Json {
    const object = map.get(id);
    if (!object || this.owners.get(id) !== account.id) throw missing(kind, id);
    return object;
  }

  private subscription(id: string): Json {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw new Error(`stripe fake: no subscription ${id}`);
    return subscription;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', this.url);
    const json = String(req.headers['content-type']).startsWith('application/json');
    const auth = req.headers.authorization ?? '';
    const request: FakeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      body: json && raw ? JSON.parse(raw) : parseForm(raw),
      query: parseForm(url.search.slice(1)),
      account: (req.headers['stripe-account'] as string | undefined) ?? null,
      key: auth.startsWith('Bearer ') ? auth.slice(7) : null,
    };
    this.requests.push(request);
    // The hosted pages a browser test lands on.
    const title = HOSTED[/^\/(c\/pay|p\/session|i)\/[^/]+$/.exec(url.pathname)?.[1] ?? ''];
    if (request.method === 'GET' && title) {
      const html = `<!doctype html><title>Fake ${title.toLowerCase()}</title><h1>Fake Stripe ${title}</h1>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    let answer: { status: number; body: Json } = { status: 200, body: {} };
    try {
      answer.body = this.answer(request);
    } catch (error) {
      // A bug in the fake answers 500 rather than leaving the client waiting.
      answer = error instanceof Answer ? error : { status: 500, body: { error: { message: String(error) } } };
    }
    const headers = { 'request-id': randomId('req_'), 'stripe-version': API_VERSION };
    res.writeHead(answer.status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(answer.body));
  }

  private answer(request: FakeRequest): Json {
    const { method, path, body, key } = request;
    if (!key || !KEY.test(key) || this.revokedKeys.has(key)) {
      const shown = key ? `${key.slice(0, key.indexOf('_', 3) + 1)}*********${key.slice(-4)}` : '(none)';
      throw invalid(`Invalid API Key provided: ${shown}`, 401);
    }
    const platform = this.accounts.get(this.accountFor(key))!;
    const account = request.account ? this.ensureAccount(request.account, platform.livemode) : platform;
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === 'POST' && expire) return this.expireCheckout(account, expire[1]!);
    const id = path.slice(path.lastIndexOf('/') + 1);
    const route =
      this.routes[`${method} ${path}`] ?? this.routes[`${method} ${path.slice(0, -id.length)}:id`];
    if (route) return route(account, body, id);
    const url = `${method}: ${path}`;
    throw invalid(`Unrecognized request URL (${url}). Please see https://stripe.com/docs.`, 404);
  }

  private readonly routes: Record<string, Route> = {
    'GET /v1/account': (a) => this.account(a),
    'POST /v1/webhook_endpoints': (a, b) => this.createEndpoint(a, b),
    'DELETE /v1/webhook_endpoints/:id': (a, _b, id) => this.deleteEndpoint(a, id),
    'POST /v1/products': (a, b) => this.product(a, b),
    'POST /v1/products/:id': (a, b, id) => this.product(a, b, id),
    'POST /v1/prices': (a, b) => this.createPrice(a, b),
    'POST /v1/prices/:id': (a, b, id) => this.updatePrice(a, b, id),
    'GET /v1/prices/:id': (a, _b, id) => this.lookup(this.prices, 'price', id, a),
    'POST /v1/customers': (a, b) => this.customer(a, b),
    'POST /v1/customers/:id': (a, b, id) => this.customer(a, b, id),
    'GET /v1/customers/:id': (a, _b, id) => this.lookup(this.customers, 'customer', id, a),
    'POST /v1/checkout/sessions': (a, b) => this.createCheckout(a, b),
    'GET /v1/checkout/sessions/:id': (a, _b, id) =>
      this.lookup(this.checkoutSessions, 'checkout session', id, a),
    'POST /v1/billing_portal/sessions': (a, b) => this.createPortal(a, b),
    'GET /v1/subscriptions/:id': (a, _b, id) => this.lookup(this.subscriptions, 'subscription', id, a),
    'POST /v1/subscriptions/:id': (a, b, id) => this.updateSubscription(a, b, id),
    'POST /v1/subscription_schedules': (a, b) => this.createSchedule(a, b),
    'POST /v1/subscription_schedules/:id': (a, b, id) => this.updateSchedule(a, b, id),
    'GET /v1/subscription_schedules/:id': (a, _b, id) =>
      this.lookup(this.subscriptionSchedules, 'subscription schedule', id, a),
    'POST /oauth/token': (_a, b) => this.token(b),
    'POST /oauth/deauthorize': (_a, b) => this.deauthorize(b),
  };

  private account(account: FakeAccount): Json {
    return {
      id: account.id,
      object: 'account',
      email: this.accountEmail,
      business_profile: { name: this.accountName },
      settings: { dashboard: { display_name: this.accountName } },
    };
  }

  private createEndpoint(account: FakeAccount, body: Json): Json {
    return this.save(this.webhookEndpoints, account, randomId('we_'), {
      object: 'webhook_endpoint',
      url: need(body, 'url'),
      enabled_events: need(body, 'enabled_events'),
      description: body.description ?? null,
      metadata: body.metadata ?? {},
      secret: 'whsec_' + randomBytes(24).toString('base64'),
      status: 'enabled',
      application: null,
    });
  }

  private deleteEndpoint(account: FakeAccount, id: string): Json {
    this.lookup(this.webhookEndpoints, 'webhook endpoint', id, account);
    this.webhookEndpoints.delete(id);
    return { id, object: 'webhook_endpoint', deleted: true };
  }

  private product(account: FakeAccount, body: Json, id?: string): Json {
    const old = id ? this.lookup(this.products, 'product', id, account) : undefined;
    return this.save(this.products, account, old?.id ?? randomId('prod_'), {
      object: 'product',
      name: old ? (body.name ?? old.name) : need(body, 'name'),
      description: body.description ?? old?.description ?? null,
      active: bool(body.active, old?.active ?? true),
      metadata: metadata(old?.metadata, body.metadata),
    });
  }

  private createPrice(account: FakeAccount, body: Json): Json {
    const product = this.lookup(this.products, 'product', need(body, 'product'), account);
    const amount = Number(need(body, 'unit_amount'));
    if (!Number.isInteger(amount) || amount < 0) throw invalid(`Invalid integer: ${body.unit_amount}`);
    const interval = body.recurring?.interval;
    if (interval !== undefined && interval !== 'month' && interval !== 'year')
      throw invalid('Invalid recurring[interval]: must be one of day, week, month, or year');
    return this.save(this.prices, account, randomId('price_', 24), {
      object: 'price',
      product: product.id,
      unit_amount: amount,
      currency: String(need(body, 'currency')).toLowerCase(),
      recurring: interval ? { interval, interval_count: 1, usage_type: 'licensed' } : null,
      active: true,
      type: interval ? 'recurring' : 'one_time',
      metadata: body.metadata ?? {},
    });
  }

  private updatePrice(account: FakeAccount, body: Json, id: string): Json {
    const price = this.lookup(this.prices, 'price', id, account);
    return Object.assign(price, {
      active: bool(body.active, price.active),
      metadata: metadata(price.metadata, body.metadata),
    });
  }

  private customer(account: FakeAccount, body: Json, id?: string): Json {
    const old = id ? this.lookup(this.customers, 'customer', id, account) : undefined;
    return this.save(this.customers, account, old?.id ?? randomId('cus_'), {
      object: 'customer',
      email: body.email ?? old?.email ?? null,
      name: body.name ?? old?.name ?? null,
      metadata: metadata(old?.metadata, body.metadata),
    });
  }

  private createCheckout(account: FakeAccount, body: Json): Json {
    need(body, 'mode');
    if (body.customer) this.lookup(this.customers, 'customer', body.customer, account);
    for (const line of body.line_items ?? []) this.lookup(this.prices, 'price', line.price, account);
    const id = randomId(account.livemode ? 'cs_live_' : 'cs_test_', 58);
    return this.save(this.checkoutSessions, account, id, {
      object: 'checkout.session',
      mode: body.mode,
      customer: body.customer ?? null,
      client_reference_id: body.client_reference_id ?? null,
      url: `${this.checkoutBase}/c/pay/${id}`,
      success_url: body.success_url ?? null,
      cancel_url: body.cancel_url ?? null,
      expires_at: now() + 86_400,
      status: 'open',
      subscription: null,
      metadata: body.metadata ?? {},
    });
  }

  private createPortal(account: FakeAccount, body: Json): Json {
    const customer = this.lookup(this.customers, 'customer', need(body, 'customer'), account);
    const id = randomId('bps_', 24);
    const url = `${this.checkoutBase}/p/session/${id}`;
    const object = 'billing_portal.session';
    return { id, object, customer: customer.id, url, return_url: body.return_url ?? null, created: now() };
  }

  /** Only an open session expires, as on Stripe. */
  private expireCheckout(account: FakeAccount, id: string): Json {
    const session = this.lookup(this.checkoutSessions, 'checkout session', id, account);
    if (session.status !== 'open')
      throw invalid('Only Checkout Sessions with a status of `open` can be expired.', 400);
    return Object.assign(session, { status: 'expired' });
  }

  private updateSubscription(account: FakeAccount, body: Json, id: string): Json {
    const subscription = this.lookup(this.subscriptions, 'subscription', id, account);
    for (const change of body.items ?? []) {
      const item = subscription.items.data.find((i: Json) => i.id === change.id);
      if (!item) throw missing('subscription item', change.id);
      // The item holds the stored price itself, as an expanded price on Stripe.
      if (change.price) item.price = this.lookup(this.prices, 'price', change.price, account);
    }
    subscription.metadata = metadata(subscription.metadata, body.metadata);
    subscription.cancel_at_period_end = bool(body.cancel_at_period_end, subscription.cancel_at_period_end);
    return subscription;
  }

  /** A schedule from a subscription: one phase, the current period on the current items. */
  private createSchedule(account: FakeAccount, body: Json): Json {
    const subscription = this.lookup(
      this.subscriptions,
      'subscription',
      need(body, 'from_subscription'),
      account,
    );
    if (subscription.schedule) throw invalid('The subscription is already attached to a schedule.', 400);
    const item = subscription.items.data[0];
    const phase = {
      start_date: item.current_period_start,
      end_date: item.current_period_end,
      items: subscription.items.data.map((i: Json) => ({ price: i.price.id, quantity: i.quantity })),
      proration_behavior: 'create_prorations',
    };
    const schedule = this.save(this.subscriptionSchedules, account, randomId('sub_sched_'), {
      object: 'subscription_schedule',
      subscription: subscription.id,
      end_behavior: 'release',
      status: 'active',
      current_phase: { start_date: phase.start_date, end_date: phase.end_date },
      phases: [phase],
    });
    subscription.schedule = schedule.id;
    return schedule;
  }

  private updateSchedule(account: FakeAccount, body: Json, id: string): Json {
    const schedule = this.lookup(this.subscriptionSchedules, 'subscription schedule', id, account);
    if (body.end_behavior) schedule.end_behavior = body.end_behavior;
    if (body.phases) {
      schedule.phases = (body.phases as Json[]).map((phase) => ({
        ...phase,
        items: (phase.items as Json[]).map((i) => {
          this.lookup(this.prices, 'price', need(i, 'price'), account);
          return { price: i.price, quantity: Number(i.quantity ?? 1) };
        }),
      }));
    }
    return schedule;
  }

  private token(body: Json): Json {
    const accountId = this.codes.get(body.code);
    if (body.grant_type !== 'authorization_code' || !accountId) {
      const error_description = `Authorization code does not exist: ${body.code}`;
      throw new Answer(400, { error: 'invalid_grant', error_description });
    }
    // A code serves once; its access token then acts on the connected account.
    this.codes.delete(body.code);
    const accessToken = randomId('sk_test_', 32);
    this.keys.set(accessToken, accountId);
    return {
      access_token: accessToken,
      livemode: false,
      refresh_token: randomId('rt_', 32),
      scope: 'read_write',
      stripe_publishable_key: randomId('pk_test_', 32),
      stripe_user_id: accountId,
      token_type: 'bearer',
    };
  }

  private deauthorize(body: Json): Json {
    const accountId = body.stripe_user_id;
    if (!body.client_id || !this.accounts.has(accountId)) {
      const error_description = `No such connected account: ${accountId}`;
      throw new Answer(400, { error: 'invalid_client', error_description });
    }
    // Its access tokens stop working, as on Stripe.
    for (const [key, owner] of this.keys) if (owner === accountId) this.revokedKeys.add(key);
    return { stripe_user_id: accountId };
  }
}

/** A webhook body and its Stripe-Signature header, signed by the official library. */
export function signedPayload(event: object, secret: string): { payload: string; header: string } {
  const payload = JSON.stringify(event, null, 2);
  return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}
