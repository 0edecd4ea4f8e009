// `sitewright billing connect|disconnect`, run as the real command against the fake Stripe API:
// the key comes on stdin only, the endpoint is made and removed on the account, plans are
// mirrored, and the key is never printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.ts';
import { testConfig } from '../helpers/app.ts';
import { cliEnv, runCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { FakeStripe } from '../helpers/fake-stripe.ts';
import { TEST_SECRETS_KEY } from '../helpers/billing.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;
let ctx: Container;
let fake: FakeStripe;

beforeAll(async () => {
  fake = await new FakeStripe().start();
  db = await createTestDatabase();
  const settings = {
    SECRETS_KEY: TEST_SECRETS_KEY,
    STRIPE_API_URL: fake.url,
    PUBLIC_URL: 'https://agency.example',
  };
  env = cliEnv(db, settings);
  ctx = await createContainer(testConfig(db, settings), {
    rateLimitKeyPrefix: `sw:test:cli-billing:${process.pid}`,
  });
});
afterAll(async () => {
  await ctx?.close();
  await db?.drop();
  await fake?.close();
});

describe('sitewright billing', () => {
  it('connects with the key on stdin, mirrors the plans, and disconnects', async () => {
    const org = JSON.parse((await runCli(['org', 'create', '--name', 'Billing Co', '--json'], env)).stdout);
    const plan = await ctx.services.plans.create(systemPrincipal(org.id), { name: 'Care', price: 12 });
    const key = 'rk_live_clibillingkey42';
    const res = await runCli(['billing', 'connect', '--org', 'Billing Co'], env, `${key}\n`);
    expect(res.stderr).not.toContain(key);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/billing connected to Stripe account acct_\w+ .*LIVE mode/);
    expect(res.stdout).toMatch(/webhook: https:\/\/agency\.example\/webhooks\/stripe\/[0-9a-f-]{36}/);
    expect(res.stdout).not.toContain(key);
    expect(fake.find('POST', '/v1/webhook_endpoints').at(-1)!.key).toBe(key);
    expect((await ctx.services.plans.get(systemPrincipal(org.id), plan.id)).stripe_price_id).toMatch(
      /^price_/,
    );

    const off = await runCli(['billing', 'disconnect', '--org', org.id, '--json'], env);
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({ org_id: org.id, disconnected: true, stripe: 'removed' });
    expect(fake.find('DELETE', '/v1/webhook_endpoints/')).toHaveLength(1);
  });

  it('refuses a missing key, a key given as an argument, and a bad key, clearly', async () => {
    await runCli(['org', 'create', '--name', 'Keyless Co'], env);
    const none = await runCli(['billing', 'connect', '--org', 'Keyless Co'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/reads the key from stdin/);
    const asArg = await runCli(['billing', 'connect', '--org', 'Keyless Co', '--key', 'rk_test_x'], env);
    expect(asArg.code).toBe(2);
    const bad = await runCli(['billing', 'connect', '--org', 'Keyless Co'], env, 'pk_test_nothere123\n');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/publishable key/);
  });
});
