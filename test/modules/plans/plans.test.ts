import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';

const api = useTestApi();

describe('plans', () => {
  it("creates a plan with the spec's defaults", async () => {
    const res = await api.post('/api/v1/plans', { name: 'Starter', price: 0 });
    expect(res.status).toBe(201);
    expect(res.body.plan).toMatchObject({
      name: 'Starter',
      description: null,
      price: 0,
      interval: 'monthly',
      max_sites: 3,
      max_ai_messages_daily: 50,
      can_export_code: false,
      can_use_custom_domain: false,
      is_active: true,
      is_default: false,
      sort_order: 0,
    });
  });

  it.each([
    [{ name: 'X' }, "field 'price' is required"],
    [{ name: 'X', price: -1 }, "field 'price' must be >= 0"],
    [{ name: 'X', price: '10' }, "field 'price' must be number"],
    [{ price: 1 }, "field 'name' is required"],
    [{ name: 'X', price: 1, interval: 'weekly' }, "field 'interval' must be one of: monthly, yearly"],
    [{ name: 'X', price: 1, max_sites: 1.5 }, "field 'max_sites' must be integer"],
    [{ name: 'X', price: 1, is_default: true }, "unknown field 'is_default'"],
    [{ name: '   ', price: 1 }, "field 'name' must not be blank"],
  ])('refuses %j', async (body, message) => {
    const res = await api.post('/api/v1/plans', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('trims names, refuses a blank one on update (before looking the plan up), and changes nothing', async () => {
    const plan = (await api.post('/api/v1/plans', { name: '  Gold  ', price: 5 })).body.plan;
    expect(plan.name).toBe('Gold');
    const blank = await api.patch(`/api/v1/plans/${plan.id}`, { name: ' ', price: 9 });
    expect([blank.status, blank.body.error]).toEqual([400, "field 'name' must not be blank"]);
    expect((await api.get(`/api/v1/plans/${plan.id}`)).body.plan).toEqual(plan);
    expect(
      (await api.patch('/api/v1/plans/01a20225-2fef-73dd-be9d-af188b7b1886', { name: ' ' })).status,
    ).toBe(400);
    expect((await api.patch(`/api/v1/plans/${plan.id}`, { name: ' Platinum ' })).body.plan.name).toBe(
      'Platinum',
    );
  });

  it('keeps one default plan and lists by sort_order then creation', async () => {
    const a = (await api.post('/api/v1/plans', { name: 'A', price: 1 })).body.plan;
    const b = (await api.post('/api/v1/plans', { name: 'B', price: 2, interval: 'yearly' })).body.plan;
    const c = (await api.post('/api/v1/plans', { name: 'C', price: 3 })).body.plan;
    await api.patch(`/api/v1/plans/${a.id}`, { is_default: true });
    const res = await api.patch(`/api/v1/plans/${b.id}`, { is_default: true, sort_order: -1 });
    expect(res.body.plan).toMatchObject({ is_default: true, sort_order: -1, interval: 'yearly', price: 2 });
    const list = (await api.get('/api/v1/plans')).body.plans;
    expect(list.map((p: { id: string }) => p.id)).toEqual([b.id, a.id, c.id]);
    expect(
      list.filter((p: { is_default: boolean }) => p.is_default).map((p: { id: string }) => p.id),
    ).toEqual([b.id]);
  });

  it('updates only the fields present', async () => {
    const plan = (
      await api.post('/api/v1/plans', { name: 'P', price: 9.5, description: 'd', can_export_code: true })
    ).body.plan;
    const res = await api.patch(`/api/v1/plans/${plan.id}`, { price: 12.25, is_active: false });
    expect(res.status).toBe(200);
    expect(res.body.plan).toEqual({ ...plan, price: 12.25, is_active: false });
    expect((await api.get(`/api/v1/plans/${plan.id}`)).body.plan).toEqual(res.body.plan);
  });

  it("does not show another organization's plans", async () => {
    const other = await api.newOrg('Other');
    const theirs = (await api.post('/api/v1/plans', { name: 'T', price: 1 }, { key: other.key })).body.plan;
    expect((await api.get(`/api/v1/plans/${theirs.id}`)).status).toBe(404);
    expect((await api.patch(`/api/v1/plans/${theirs.id}`, { is_default: true })).status).toBe(404);
    expect((await api.get('/api/v1/plans')).body.plans).toEqual([]);
    expect((await api.get(`/api/v1/plans/${theirs.id}`, { key: other.key })).body.plan.is_default).toBe(
      false,
    );
  });

  it('has no delete operation', async () => {
    const plan = (await api.post('/api/v1/plans', { name: 'P', price: 1 })).body.plan;
    const res = await api.delete(`/api/v1/plans/${plan.id}`);
    expect(res.status).toBe(404);
    expect((await api.get(`/api/v1/plans/${plan.id}`)).status).toBe(200);
  });
});
