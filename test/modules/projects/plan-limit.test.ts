import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createPlan, createProject } from '../../helpers/fixtures.ts';

const api = useTestApi();

const create = (email: string, name = 'Site') => api.post('/api/v1/projects', { client_email: email, name });
const countFor = async (clientId: string) =>
  (await api.get(`/api/v1/projects?client_id=${clientId}`)).body.total;

describe("the client's plan max_sites", () => {
  it('refuses one project more than the plan allows with 403 naming the limit, creating nothing', async () => {
    const plan = await createPlan(api, 2);
    const client = await createClient(api, { plan_id: plan.id });
    expect((await create(client.email, 'One')).status).toBe(201);
    expect((await create(client.email, 'Two')).status).toBe(201);
    const refused = await create(client.email, 'Three');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/^Plan limit reached: .*max_sites = 2/);
    expect(await countFor(client.id)).toBe(2);
    const three = await api.ctx.database.db
      .selectFrom('projects')
      .select('id')
      .where('name', '=', 'Three')
      .execute();
    expect(three).toEqual([]);
  });

  it('counts archived projects, applies per client, and follows plan changes', async () => {
    const plan = await createPlan(api, 1);
    const client = await createClient(api, { plan_id: plan.id });
    const neighbour = await createClient(api, { plan_id: plan.id });
    const unlimited = await createClient(api);
    const first = await createProject(api, { client_email: client.email, name: 'First' });
    await api.patch(`/api/v1/projects/${first.id}`, { status: 'archived' });
    expect((await create(client.email)).status).toBe(403);
    // The same plan on another client is a separate allowance; no plan means no limit.
    expect((await create(neighbour.email)).status).toBe(201);
    for (let i = 0; i < 4; i++) expect((await create(unlimited.email)).status).toBe(201);
    // Raising the plan's limit, or detaching the plan, lifts the refusal.
    await api.patch(`/api/v1/plans/${plan.id}`, { max_sites: 2 });
    expect((await create(client.email)).status).toBe(201);
    expect((await create(client.email)).status).toBe(403);
    await api.patch(`/api/v1/clients/${client.id}`, { plan_id: null });
    expect((await create(client.email)).status).toBe(201);
    expect(await countFor(client.id)).toBe(3);
  });

  it('frees a slot when a project is deleted', async () => {
    const plan = await createPlan(api, 1);
    const client = await createClient(api, { plan_id: plan.id });
    const only = await createProject(api, { client_email: client.email, name: 'Only' });
    expect((await create(client.email)).status).toBe(403);
    await api.delete(`/api/v1/projects/${only.id}`);
    expect((await create(client.email)).status).toBe(201);
  });

  it('allows no project at all with max_sites = 0', async () => {
    const plan = await createPlan(api, 0);
    const client = await createClient(api, { plan_id: plan.id });
    const res = await create(client.email);
    expect(res.status).toBe(403);
    expect(res.body.error).toContain('max_sites = 0');
    expect(await countFor(client.id)).toBe(0);
  });

  it('holds under concurrent creates for one client', async () => {
    const plan = await createPlan(api, 2);
    const client = await createClient(api, { plan_id: plan.id });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(client.email, `Concurrent ${i}`)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 403, 403, 403, 403, 403, 403]);
    expect(await countFor(client.id)).toBe(2);
  });
});
