// What billing does to a client's sites and account, as Settings → Billing says (each off by
// default): publish on the first payment, suspend and unpublish when the subscription ends or
// stays past due too long, republish and reactivate when the client pays again. Each action goes
// through the usual services (their events) and is listed on the client's page.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { connectKey, deliver, outbox, useFakeStripe } from '../helpers/billing.ts';
import { createClient } from '../helpers/fixtures.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';
import type { BillingSettings } from '../../src/modules/billing/settings.ts';

const { fake, env } = useFakeStripe();
const api = useTestApi(env);

/** A connected organization with `settings`, a paying client with one site written (not published). */
async function payingClient(settings: Partial<BillingSettings>) {
  const billing = await connectKey(api, fake);
  await api.ctx.services.billing.updateSettings(systemPrincipal(api.org.id), settings);
  const plan = (await api.post('/api/v1/plans', { name: 'Care', price: 20 })).body.plan;
  const client = await createClient(api, { plan_id: plan.id });
  await api.patch(`/api/v1/clients/${client.id}`, { status: 'active' });
  const project = (await api.post('/api/v1/projects', { name: 'Bakery', client_email: client.email })).body
    .project;
  await api.put(`/api/v1/projects/${project.id}/files/index.html`, { content: '<h1>Bakery</h1>' });
  expect((await api.post(`/api/v1/clients/${client.id}/checkout`, {})).status).toBe(201);
  const session = [...fake.checkoutSessions.values()].at(-1)!;
  const price = (await api.get(`/api/v1/plans/${plan.id}`)).body.plan.stripe_price_id;
  const sub = fake.subscribe({ account: billing.account, customer: session.customer, price });
  const path = `/webhooks/stripe/${billing.connection.id}`;
  const send = async (type: string, object: object) =>
    expect((await deliver(api, path, fake.event(type, object), billing.secret)).status).toBe(200);
  await send('checkout.session.completed', { ...session, subscription: sub.id });
  const pay = () => send('invoice.paid', fake.invoice({ account: billing.account, subscription: sub.id }));
  const setStatus = (status: string) => {
    fake.setSubscriptionStatus(sub.id, status);
    return send('customer.subscription.updated', fake.subscriptions.get(sub.id)!);
  };
  return { client, project, sub, pay, setStatus };
}

const projectOf = async (id: string) => (await api.get(`/api/v1/projects/${id}`)).body.project;
const clientOf = async (id: string) => (await api.get(`/api/v1/clients/${id}`)).body.client;
const activity = (clientId: string) =>
  api.ctx.services.billing
    .activity(systemPrincipal(api.org.id), clientId)
    .then((a) => a.map((x) => x.action));

describe('billing automations', () => {
  it('do nothing when they are off (the default)', async () => {
    const { client, project, pay, setStatus } = await payingClient({});
    await pay();
    expect((await projectOf(project.id)).published_url).toBeNull();
    await setStatus('canceled');
    expect((await clientOf(client.id)).status).toBe('active');
    expect(await activity(client.id)).toEqual([]);
  });

  it('publish the client’s sites on its first payment, with project.published', async () => {
    const { client, project, pay } = await payingClient({ publish_on_first_payment: true });
    await pay();
    const live = await projectOf(project.id);
    expect(live.published_url).toMatch(/^http/);
    expect((await outbox(api, 'project.published')).map((e) => e.data.project.id)).toContain(project.id);
    expect(await activity(client.id)).toEqual(['site_published']);
    // A second payment publishes nothing again.
    await api.post(`/api/v1/projects/${project.id}/unpublish`, {});
    await pay();
    expect((await projectOf(project.id)).published_url).toBeNull();
  });

  it('suspend and unpublish on cancellation, then republish and reactivate on payment', async () => {
    const settings = { suspend_on_cancel: true, unpublish_on_cancel: true, restore_on_payment: true };
    const { client, project, pay, setStatus } = await payingClient(settings);
    await api.post(`/api/v1/projects/${project.id}/publish`, {});
    const url = (await projectOf(project.id)).published_url;
    await setStatus('canceled');
    const stopped = await clientOf(client.id);
    expect(stopped).toMatchObject({ status: 'suspended', payment_status: 'canceled' });
    expect((await projectOf(project.id)).published_url).toBeNull();
    const suspended = (await outbox(api, 'client.updated')).at(-1)!.data;
    expect(suspended.previous_attributes).toEqual({ status: 'active' });
    expect(await activity(client.id)).toEqual(['site_unpublished', 'suspended']);

    await setStatus('active');
    await pay();
    expect(await clientOf(client.id)).toMatchObject({ status: 'active', payment_status: 'active' });
    expect((await projectOf(project.id)).published_url).toBe(url);
    expect((await activity(client.id)).slice(0, 2).sort()).toEqual(['reactivated', 'site_republished']);
  });

  it('leave a site the agency published again itself as it is', async () => {
    const settings = { unpublish_on_cancel: true, restore_on_payment: true };
    const { project, pay, setStatus } = await payingClient(settings);
    await api.post(`/api/v1/projects/${project.id}/publish`, {});
    await setStatus('canceled');
    expect((await projectOf(project.id)).published_url).toBeNull();
    await api.put(`/api/v1/projects/${project.id}/files/index.html`, { content: '<h1>Newer</h1>' });
    expect((await api.post(`/api/v1/projects/${project.id}/publish`, {})).status).toBe(200);
    await setStatus('active');
    await pay();
    // The newest deployment (the agency's) stays live; the one billing took offline does not come back.
    const { deployments } = (await api.get(`/api/v1/projects/${project.id}/deployments`)).body;
    expect(deployments).toHaveLength(2);
    expect(deployments.map((d: { live: boolean }) => d.live)).toEqual([true, false]);
  });

  it('act on a client past due for longer than the organization allows, once', async () => {
    const { client, setStatus } = await payingClient({ suspend_on_cancel: true, past_due_days: 3 });
    await setStatus('past_due');
    const automations = api.ctx.services.billing.automations;
    expect(await automations.sweepPastDue(new Date(Date.now() + 2 * 86_400_000))).toBe(0);
    expect((await clientOf(client.id)).status).toBe('active');
    expect(await automations.sweepPastDue(new Date(Date.now() + 4 * 86_400_000))).toBe(1);
    expect((await clientOf(client.id)).status).toBe('suspended');
    expect(await automations.sweepPastDue(new Date(Date.now() + 5 * 86_400_000))).toBe(0);
    expect((await activity(client.id))[0]).toBe('suspended');
  });
});
