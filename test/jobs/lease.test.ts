// The one lease implementation (src/jobs/lease.ts) as each job table uses it: generations are
// marked running with their try counted, webhook deliveries stay pending with their attempt count
// untouched and never take more than an endpoint's room. On both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.ts';
import { claimDue } from '../../src/events/claim.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { leaseDue } from '../../src/jobs/lease.ts';
import { newId } from '../../src/lib/ids.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

let test: TestDatabase;
let ctx: Container;
let orgId: string;
let projectId: string;

beforeAll(async () => {
  test = await createTestDatabase();
  ctx = await createContainer(testConfig(test, { WEBHOOKS_ALLOW_PRIVATE: 'true' }));
  orgId = (await ctx.services.orgs.createOrg(`Leases ${process.pid}`)).id;
  const client = await ctx.services.clients.create(systemPrincipal(orgId), { email: 'lease@example.com' });
  projectId = (
    await ctx.services.projects.create(systemPrincipal(orgId), { client_email: client.email, name: 'Leased' })
  ).id;
});
afterAll(async () => {
  await ctx?.close();
  await test?.drop();
});

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

describe('job tables (generations)', () => {
  const ids: string[] = [];
  const opts = { leaseMs: 60_000, statuses: ['queued', 'running'], leasedStatus: 'running' } as const;

  beforeAll(async () => {
    // Due at T0 + 0, 1, 2 s; one queued for later; one finished.
    const row = (i: number, status: 'queued' | 'succeeded', due: string) => ({
      id: newId(),
      org_id: orgId,
      project_id: projectId,
      org_client_id: null,
      prompt: `p${i}`,
      model: 'builtin',
      status,
      error: null,
      summary: null,
      files: null,
      attempts: 0,
      next_attempt_at: due,
      lease_until: null,
      lease_token: null,
      created_at: at(0),
      started_at: null,
      finished_at: null,
      updated_at: at(0),
    });
    const rows = [
      row(2, 'queued', at(2_000)),
      row(0, 'queued', at(0)),
      row(1, 'queued', at(1_000)),
      row(3, 'queued', at(3_600_000)),
      row(4, 'succeeded', at(0)),
    ];
    await ctx.database.db.insertInto('generations').values(rows).execute();
    ids.push(...rows.map((r) => r.id));
  });

  const state = (id: string) =>
    ctx.database.db
      .selectFrom('generations')
      .select(['status', 'attempts', 'lease_token', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('leases the oldest due rows up to the limit, marks them and counts the try', async () => {
    const first = await leaseDue(ctx.database, 'generations', { ...opts, limit: 2, now: T0 + 5_000 });
    expect(first.ids.sort()).toEqual([ids[1], ids[2]].sort());
    for (const id of first.ids) {
      expect(await state(id)).toEqual({
        status: 'running',
        attempts: 1,
        lease_token: first.token,
        updated_at: expect.anything(),
      });
    }
    const second = await leaseDue(ctx.database, 'generations', { ...opts, limit: 10, now: T0 + 5_000 });
    expect(second.ids).toEqual([ids[0]]);
    expect(second.token).not.toBe(first.token);
    // Leased, not yet due, or finished: nothing left.
    expect(
      (await leaseDue(ctx.database, 'generations', { ...opts, limit: 10, now: T0 + 5_000 })).ids,
    ).toEqual([]);
  });

  it('leases a row again once its lease ran out (its worker died), counting another try', async () => {
    const again = await leaseDue(ctx.database, 'generations', {
      ...opts,
      limit: 10,
      now: T0 + 5_000 + 60_000,
    });
    expect(again.ids.sort()).toEqual([ids[0], ids[1], ids[2]].sort());
    expect(await state(ids[1]!)).toMatchObject({ status: 'running', attempts: 2, lease_token: again.token });
  });

  it('gives each due row to one of several concurrent leases only', async () => {
    const now = T0 + 3_600_000 + 10 * 60_000;
    const results = await Promise.all(
      Array.from({ length: 4 }, () => leaseDue(ctx.database, 'generations', { ...opts, limit: 10, now })),
    );
    const leased = results.flatMap((r) => r.ids);
    expect(leased.sort()).toEqual([ids[0], ids[1], ids[2], ids[3]].sort());
  });
});

describe('webhook deliveries', () => {
  const deliveryIds: string[] = [];

  beforeAll(async () => {
    await ctx.services.webhooks.create(systemPrincipal(orgId), {
      url: 'http://127.0.0.1:9/hook',
      events: ['project.created'],
    });
    for (let i = 0; i < 3; i++) {
      const event = await ctx.database.db
        .transaction()
        .execute((trx) => recordEvent(trx, { orgId, type: 'project.created', data: { i } }));
      deliveryIds.push(...event.deliveryIds);
    }
  });

  const state = (id: string) =>
    ctx.database.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempt_count', 'lease_token'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('leases no more than the endpoint has room for, keeping them pending with their attempt count', async () => {
    const now = Date.now() + 1_000;
    const first = await claimDue(ctx.database, { limit: 10, endpointConcurrency: 2, leaseMs: 60_000, now });
    expect(first.ids).toHaveLength(2);
    for (const id of first.ids)
      expect(await state(id)).toEqual({ status: 'pending', attempt_count: 0, lease_token: first.token });
    // The endpoint's two slots are taken while those leases run.
    expect(
      (await claimDue(ctx.database, { limit: 10, endpointConcurrency: 2, leaseMs: 60_000, now })).ids,
    ).toEqual([]);
    // With room for three, the third one goes.
    const third = await claimDue(ctx.database, { limit: 10, endpointConcurrency: 3, leaseMs: 60_000, now });
    expect(third.ids).toEqual(deliveryIds.filter((id) => !first.ids.includes(id)));
    // Once the leases ran out, all of them are due again.
    const later = await claimDue(ctx.database, {
      limit: 10,
      endpointConcurrency: 3,
      leaseMs: 60_000,
      now: now + 60_000,
    });
    expect(later.ids.sort()).toEqual([...deliveryIds].sort());
  });
});
