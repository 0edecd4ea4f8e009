import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';

const api = useTestApi();

async function createPlan(extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/v1/plans', { name: 'Starter', price: 10, ...extra });
  expect(res.status).toBe(201);
  return res.body.plan.id as string;
}

describe('clients', () => {
  it('creates a client invited with no payment status', async () => {
    const res = await api.post('/api/v1/clients', {
      email: 'Ann@Example.com',
      name: 'Ann',
      company: 'Ann Co',
    });
    expect(res.status).toBe(201);
    expect(res.body.client).toMatchObject({
      email: 'Ann@Example.com',
      name: 'Ann',
      company: 'Ann Co',
      status: 'invited',
      payment_status: 'none',
      plan_id: null,
    });
    const got = await api.get(`/api/v1/clients/${res.body.client.id}`);
    expect(got.status).toBe(200);
    expect(got.body.client).toEqual(res.body.client);
  });

  it('lists only this organization’s clients, newest first', async () => {
    const a = (await api.post('/api/v1/clients', { email: 'a@example.com' })).body.client;
    const b = (await api.post('/api/v1/clients', { email: 'b@example.com' })).body.client;
    const other = await api.newOrg('Other');
    await api.post('/api/v1/clients', { email: 'c@example.com' }, { key: other.key });
    const list = await api.get('/api/v1/clients');
    expect(list.body.clients.map((c: { id: string }) => c.id)).toEqual([b.id, a.id]);
  });

  it('refuses a duplicate email, compared case-insensitively, and keeps the first', async () => {
    await api.post('/api/v1/clients', { email: 'dup@example.com', name: 'First' });
    const res = await api.post('/api/v1/clients', { email: 'DUP@example.COM', name: 'Second' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('already exists');
    const list = await api.get('/api/v1/clients');
    expect(list.body.clients).toHaveLength(1);
    expect(list.body.clients[0].name).toBe('First');
  });

  it('allows the same email in two organizations', async () => {
    const other = await api.newOrg('Other');
    expect((await api.post('/api/v1/clients', { email: 'same@example.com' })).status).toBe(201);
    expect(
      (await api.post('/api/v1/clients', { email: 'same@example.com' }, { key: other.key })).status,
    ).toBe(201);
  });

  it.each([
    [{}, "field 'email' is required"],
    [{ email: 'not-an-email' }, "field 'email' must be a valid email"],
    [{ email: 42 }, "field 'email' must be string"],
    [{ email: 'x@example.com', payment_status: 'active' }, "unknown field 'payment_status'"],
    [{ email: 'x@example.com', plan_id: 'nope' }, "field 'plan_id'"],
    [{ email: 'x@example.com', plan_id: '01a20225-2fef-73dd-be9d-af188b7b1886' }, "field 'plan_id': no plan"],
  ])('refuses %j', async (body, message) => {
    const res = await api.post('/api/v1/clients', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect((await api.get('/api/v1/clients')).body.clients).toEqual([]);
  });

  it('attaches an active plan, refuses an inactive one or another organization’s', async () => {
    const planId = await createPlan();
    const created = await api.post('/api/v1/clients', { email: 'p@example.com', plan_id: planId });
    expect(created.body.client.plan_id).toBe(planId);

    const inactive = await createPlan({ name: 'Old' });
    await api.patch(`/api/v1/plans/${inactive}`, { is_active: false });
    const refused = await api.patch(`/api/v1/clients/${created.body.client.id}`, { plan_id: inactive });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('not active');

    const other = await api.newOrg('Other');
    const foreign = (await api.post('/api/v1/plans', { name: 'Theirs', price: 1 }, { key: other.key })).body
      .plan.id;
    const res = await api.patch(`/api/v1/clients/${created.body.client.id}`, { plan_id: foreign });
    expect(res.status).toBe(400);
    expect((await api.get(`/api/v1/clients/${created.body.client.id}`)).body.client.plan_id).toBe(planId);
  });

  it('updates only the fields present; null detaches the plan; payment_status is read-only', async () => {
    const planId = await createPlan();
    const { client } = (
      await api.post('/api/v1/clients', {
        email: 'u@example.com',
        name: 'U',
        company: 'UCo',
        plan_id: planId,
      })
    ).body;
    const res = await api.patch(`/api/v1/clients/${client.id}`, { status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body.client).toEqual({ ...client, status: 'active' });
    const detached = await api.patch(`/api/v1/clients/${client.id}`, { plan_id: null, company: null });
    expect(detached.body.client).toMatchObject({ plan_id: null, company: null, name: 'U', status: 'active' });
    const ro = await api.patch(`/api/v1/clients/${client.id}`, { payment_status: 'active' });
    expect(ro.status).toBe(400);
    expect(ro.body.error).toBe("unknown field 'payment_status'");
    const bad = await api.patch(`/api/v1/clients/${client.id}`, { status: 'deleted' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("'status' must be one of: invited, active, suspended, churned");
  });

  it("answers 404 for another organization's client and never changes it", async () => {
    const other = await api.newOrg('Other');
    const theirs = (
      await api.post('/api/v1/clients', { email: 't@example.com', name: 'Theirs' }, { key: other.key })
    ).body.client;
    expect((await api.get(`/api/v1/clients/${theirs.id}`)).status).toBe(404);
    const res = await api.patch(`/api/v1/clients/${theirs.id}`, { name: 'Mine' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Client not found' });
    expect((await api.get(`/api/v1/clients/${theirs.id}`, { key: other.key })).body.client.name).toBe(
      'Theirs',
    );
  });

  it('refuses a malformed client id with 400 naming the parameter', async () => {
    const res = await api.get('/api/v1/clients/123');
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("'clientId'");
  });
});
