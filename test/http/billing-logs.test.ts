// No secret of billing ever reaches a log line or an answer: not the key an owner pastes, not the
// endpoint's signing secret, not a signature, not what Stripe says when it refuses a key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createContainer, type Container } from '../../src/container.ts';
import { buildServer } from '../../src/main.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { FakeStripe, signedPayload } from '../helpers/fake-stripe.ts';
import { TEST_SECRETS_KEY } from '../helpers/billing.ts';
import { logCollector } from '../helpers/log-lines.ts';
import { PageSession } from '../helpers/page-session.ts';

const log = logCollector();
let db: TestDatabase;
let ctx: Container;
let app: FastifyInstance;
let fake: FakeStripe;

beforeAll(async () => {
  fake = await new FakeStripe().start();
  db = await createTestDatabase();
  const logger = pino({ level: 'debug' }, log.stream);
  const config = testConfig(db, {
    SECRETS_KEY: TEST_SECRETS_KEY,
    STRIPE_API_URL: fake.url,
    LOG_LEVEL: 'debug',
  });
  ctx = await createContainer(config, { logger, rateLimitKeyPrefix: `sw:test:billing-logs:${process.pid}` });
  app = await buildServer(ctx, logger);
});
afterAll(async () => {
  await app?.close();
  await ctx?.close();
  await db?.drop();
  await fake?.close();
});

describe('billing secrets', () => {
  it('never appear in a log line or a page', async () => {
    const org = await ctx.services.orgs.createOrg('Quiet Agency');
    const owner = await PageSession.signIn(app, ctx, org.id, 'owner');
    const key = 'rk_test_neverlogged2026';
    const connected = await owner.post('/settings/billing/connect', { key });
    expect(connected.status).toBe(303);
    const connection = (await ctx.services.billing.connections.get(systemPrincipal(org.id)))!;
    const secret = [...fake.webhookEndpoints.values()].find((e) => e.url === connection.webhook_url)!.secret;
    const { payload, header } = signedPayload(
      fake.event('invoice.paid', { id: 'in_1', object: 'invoice' }),
      secret,
    );
    const res = await app.inject({
      method: 'POST',
      url: `/webhooks/stripe/${connection.id}`,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    });
    expect(res.statusCode).toBe(200);
    const page = await owner.get('/settings/billing');
    // A key Stripe no longer accepts: the disconnection is logged, in words without the key.
    fake.revokedKeys.add(key);
    expect((await owner.post('/settings/billing/disconnect')).status).toBe(303);
    const lines = log.lines.map((line) => JSON.stringify(line));
    expect(lines.some((line) => line.includes('a disconnection failed'))).toBe(true);
    for (const needle of [key.slice(8), secret.slice(6), header.slice(20)]) {
      expect(lines.filter((line) => line.includes(needle))).toEqual([]);
      expect(page.body).not.toContain(needle);
      expect(res.body).not.toContain(needle);
    }
  });
});
