// Billing test helpers: the fake Stripe API wired into a harness, and processor events delivered
// the way Stripe delivers them (signed with the library's test header, raw JSON body).
import { beforeAll, afterAll } from 'vitest';
import { FakeStripe, signedPayload, type Json } from './fake-stripe.ts';
import type { TestApi } from './app.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

/** 32 bytes as base64: the tests' SECRETS_KEY on both engines. */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * A fake Stripe for the file, started before the harness: pass the returned `env` to useTestApi
 * (it is filled with STRIPE_API_URL once the fake listens).
 */
export function useFakeStripe(extra: Record<string, string> = {}): {
  fake: FakeStripe;
  env: Record<string, string>;
} {
  const fake = new FakeStripe();
  const env: Record<string, string> = { SECRETS_KEY: TEST_SECRETS_KEY, ...extra };
  beforeAll(async () => {
    await fake.start();
    env.STRIPE_API_URL = fake.url;
  });
  afterAll(() => fake.close());
  return { fake, env };
}

/** Connects the test organization with a restricted test key; returns the connection and its signing secret. */
export async function connectKey(
  api: TestApi,
  fake: FakeStripe,
  key = `rk_test_${Math.random().toString(36).slice(2, 14)}x`,
) {
  const { connection } = await api.ctx.services.billing.connectKey(systemPrincipal(api.org.id), key);
  const endpoint = [...fake.webhookEndpoints.values()].find((e) => e.url === connection.webhook_url);
  if (!endpoint) throw new Error('no webhook endpoint was made on the fake');
  return { connection, key, secret: endpoint.secret as string, account: fake.accountFor(key) };
}

/** POSTs an event to a webhook path as Stripe does; `secret` null sends no signature. */
export async function deliver(
  api: TestApi,
  path: string,
  event: Json,
  secret: string | null,
  tamper = false,
) {
  const { payload, header } = signedPayload(event, secret ?? 'whsec_unused');
  const body = tamper ? payload.replace('"livemode"', '"livemode" ') : payload;
  const res = await api.app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(secret === null ? {} : { 'stripe-signature': header }),
    },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() as Json };
}

/** The events the organization's outbox holds, oldest first. */
export async function outbox(api: TestApi, type?: string): Promise<Json[]> {
  let query = api.ctx.database.db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('org_id', '=', api.org.id);
  if (type) query = query.where('type', '=', type);
  const rows = await query.orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
  return rows.map((row) => JSON.parse(row.payload) as Json);
}
