import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { Receiver, verify } from '../helpers/receiver.ts';
import { waitUntil } from '../helpers/wait.ts';

const api = useTestApi(
  {
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0ms,50ms,100ms',
    WEBHOOK_TIMEOUT: '1s',
    WEBHOOK_POLL_INTERVAL: '20ms',
  },
  { dispatcher: true },
);
let receiver: Receiver;
let n = 0;
beforeAll(async () => (receiver = await Receiver.start()));
afterAll(() => receiver.close());

/** A fresh path on the receiver and an endpoint of the test's org pointing at it. */
async function endpoint(events: string[] = ['client.created', 'client.updated'], key?: string) {
  const path = `/hook-${++n}`;
  const res = await api.post('/api/v1/webhooks', { url: receiver.url(path), events }, key ? { key } : {});
  expect(res.status).toBe(201);
  return { path, id: res.body.webhook.id as string, secret: res.body.webhook.secret as string };
}

const deliveriesOf = async (webhookId: string, query = '') =>
  (await api.get(`/api/v1/webhooks/${webhookId}/deliveries${query}`)).body;

describe('webhook delivery', () => {
  it('delivers client.created, signed, with the client as the API returns it', async () => {
    const hook = await endpoint();
    const created = await api.post('/api/v1/clients', { email: 'ann@example.com', name: 'Ann' });
    const [delivery] = await receiver.waitFor(hook.path, 1);
    const { standard, svix } = verify(hook.secret, delivery!);
    expect(svix).toEqual(standard);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.json).toEqual({
      id: delivery!.headers['webhook-id'],
      type: 'client.created',
      timestamp: expect.any(String),
      data: { client: created.body.client },
    });
    expect(Object.keys(delivery!.json)).toEqual(['id', 'type', 'timestamp', 'data']);
    const log = await waitUntil(async () => {
      const body = await deliveriesOf(hook.id);
      return body.deliveries[0]?.status === 'succeeded' && body;
    });
    expect(log.total).toBe(1);
    expect(log.deliveries[0]).toMatchObject({
      event_id: delivery!.json.id,
      event_type: 'client.created',
      attempt_count: 1,
      next_attempt_at: null,
    });
    expect(log.deliveries[0].attempts).toEqual([
      {
        attempted_at: expect.any(String),
        duration_ms: expect.any(Number),
        status_code: 200,
        error: null,
        response_body: 'ok',
      },
    ]);
  });

  it('delivers client.updated with the previous values of the changed fields, and nothing for a no-op', async () => {
    const hook = await endpoint(['client.updated']);
    const { body } = await api.post('/api/v1/clients', {
      email: 'bob@example.com',
      name: 'Old',
      company: 'Same',
    });
    const id = body.client.id;
    await api.patch(`/api/v1/clients/${id}`, { name: 'Same' });
    await api.patch(`/api/v1/clients/${id}`, { name: 'New', company: 'Same', status: 'active' });
    const [first] = await receiver.waitFor(hook.path, 1);
    expect(verify(hook.secret, first!).standard).toMatchObject({
      type: 'client.updated',
      data: { previous_attributes: { name: 'Old' } },
    });
    const [, second] = await receiver.waitFor(hook.path, 2);
    expect(second!.json.data).toEqual({
      client: (await api.get(`/api/v1/clients/${id}`)).body.client,
      previous_attributes: { name: 'Same', status: 'invited' },
    });
    expect(second!.json.data.client).toMatchObject({ name: 'New', status: 'active' });
    await api.patch(`/api/v1/clients/${id}`, { name: 'New' });
    await api.post('/api/v1/clients', { email: 'flush@example.com' });
    await waitUntil(
      async () => (await deliveriesOf(hook.id)).total === 2 && receiver.at(hook.path).length === 2,
    );
  });

  it('delivers project.created with the project as the API returns it, and nothing when the create fails', async () => {
    const hook = await endpoint(['project.created']);
    await api.post('/api/v1/clients', { email: 'site@example.com' });
    const refused = await api.post('/api/v1/projects', { client_email: 'nobody@example.com', name: 'Ghost' });
    expect(refused.status).toBe(404);
    const created = await api.post('/api/v1/projects', {
      client_email: 'site@example.com',
      name: 'Bakery Site',
    });
    expect(created.status).toBe(201);
    const [delivery] = await receiver.waitFor(hook.path, 1);
    const event = verify(hook.secret, delivery!).standard as any;
    expect(event).toMatchObject({ type: 'project.created' });
    expect(event.data).toEqual({
      project: (await api.get(`/api/v1/projects/${created.body.project.id}`)).body.project,
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.at(hook.path)).toHaveLength(1);
  });

  it('fans one event out to every active subscribed endpoint of the org, with one webhook-id', async () => {
    const [a, b] = [await endpoint(['client.created']), await endpoint(['client.created'])];
    const notSubscribed = await endpoint(['client.updated']);
    const inactive = await endpoint(['client.created']);
    await api.patch(`/api/v1/webhooks/${inactive.id}`, { is_active: false });
    const other = await api.newOrg('Other');
    const foreign = await endpoint(['client.created'], other.key);
    await api.post('/api/v1/clients', { email: 'fan@example.com' });
    const [[ra], [rb]] = await Promise.all([receiver.waitFor(a.path, 1), receiver.waitFor(b.path, 1)]);
    expect(ra!.headers['webhook-id']).toBe(rb!.headers['webhook-id']);
    verify(a.secret, ra!);
    verify(b.secret, rb!);
    expect(() => verify(a.secret, rb!)).toThrow();
    await api.patch(`/api/v1/webhooks/${inactive.id}`, { is_active: true });
    await new Promise((r) => setTimeout(r, 150));
    for (const h of [notSubscribed, inactive, foreign]) expect(receiver.at(h.path)).toHaveLength(0);
    expect((await deliveriesOf(inactive.id)).total).toBe(0);
  });

  it('replays a delivery with the same webhook-id and body', async () => {
    const hook = await endpoint();
    await api.post('/api/v1/clients', { email: 'replay@example.com' });
    const [original] = await receiver.waitFor(hook.path, 1);
    const delivery = await waitUntil(async () =>
      (await deliveriesOf(hook.id)).deliveries.find((d: any) => d.status === 'succeeded'),
    );
    const res = await api.post(`/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry`);
    expect(res.status).toBe(202);
    expect(res.body.delivery).toMatchObject({ id: delivery.id, status: 'pending' });
    const [, replay] = await receiver.waitFor(hook.path, 2);
    expect(replay!.headers['webhook-id']).toBe(original!.headers['webhook-id']);
    expect(replay!.body).toBe(original!.body);
    verify(hook.secret, replay!);
    const after = await waitUntil(async () =>
      (await deliveriesOf(hook.id)).deliveries.find(
        (d: any) => d.attempt_count === 2 && d.status === 'succeeded',
      ),
    );
    expect(after.attempts).toHaveLength(2);
  });

  it('refuses fields sent to an operation that takes no body, and accepts an empty object', async () => {
    const hook = await endpoint();
    const refused = await api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`, { grace: 10 });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: "unknown field 'grace'" });
    expect((await api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`, {})).status).toBe(200);
  });

  it('rotates the secret: deliveries carry both signatures, each verifying', async () => {
    const hook = await endpoint();
    const res = await api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(hook.secret);
    expect(res.body.webhook).toMatchObject({ id: hook.id, is_active: true });
    await api.post('/api/v1/clients', { email: 'rotate@example.com' });
    const [delivery] = await receiver.waitFor(hook.path, 1);
    expect(String(delivery!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verify(res.body.secret, delivery!);
    verify(hook.secret, delivery!);
  });

  it('sends a test ping to one endpoint and returns the attempt', async () => {
    const hook = await endpoint();
    const bystander = await endpoint();
    receiver.on(hook.path, (_r, nth) =>
      nth === 1 ? { status: 200, body: 'pong' } : { status: 500, body: 'boom' },
    );
    const ok = await api.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(ok.status).toBe(200);
    expect(ok.body.attempt).toMatchObject({ status_code: 200, error: null, response_body: 'pong' });
    expect(ok.body.delivery).toMatchObject({
      event_type: 'webhook.test',
      status: 'succeeded',
      attempt_count: 1,
    });
    const [ping] = receiver.at(hook.path);
    expect(verify(hook.secret, ping!).standard).toMatchObject({
      type: 'webhook.test',
      data: { webhook: { id: hook.id } },
    });
    const failed = await api.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(failed.body.attempt).toMatchObject({ status_code: 500, response_body: 'boom' });
    expect(failed.body.delivery).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(receiver.at(bystander.path)).toHaveLength(0);
    expect((await api.get(`/api/v1/webhooks/${hook.id}`)).body.webhook).toMatchObject({
      is_active: true,
      disabled_reason: null,
    });
  });

  it('filters and pages the delivery log, newest first', async () => {
    const hook = await endpoint(['client.created']);
    receiver.on(hook.path, (r) => (r.json.data.client.email.startsWith('fail') ? { status: 500 } : {}));
    for (const email of ['ok1@example.com', 'fail@example.com', 'ok2@example.com'])
      await api.post('/api/v1/clients', { email });
    await waitUntil(async () => (await deliveriesOf(hook.id, '?status=failed')).total === 1);
    expect((await deliveriesOf(hook.id, '?status=succeeded')).total).toBe(2);
    const page = await deliveriesOf(hook.id, '?limit=2&offset=0');
    expect(page.total).toBe(3);
    expect(page.deliveries).toHaveLength(2);
    expect(page.deliveries[0].created_at >= page.deliveries[1].created_at).toBe(true);
    const failed = (await deliveriesOf(hook.id, '?status=failed')).deliveries[0];
    expect(failed.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 500]);
    expect((await api.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=101`)).status).toBe(400);
    expect((await api.get(`/api/v1/webhooks/${hook.id}/deliveries?status=lost`)).body.error).toContain(
      'status',
    );
  });

  it("keeps another organization's endpoint and deliveries out of reach", async () => {
    const other = await api.newOrg('Other');
    const theirs = await endpoint(['client.created'], other.key);
    await api.post('/api/v1/clients', { email: 'theirs@example.com' }, { key: other.key });
    await receiver.waitFor(theirs.path, 1);
    const delivery = await waitUntil(
      async () =>
        (await api.get(`/api/v1/webhooks/${theirs.id}/deliveries`, { key: other.key })).body.deliveries[0],
    );
    const base = `/api/v1/webhooks/${theirs.id}`;
    expect((await api.get(`${base}/deliveries`)).status).toBe(404);
    expect((await api.post(`${base}/deliveries/${delivery.id}/retry`)).status).toBe(404);
    expect((await api.post(`${base}/test`)).status).toBe(404);
    expect((await api.post(`${base}/rotate-secret`)).status).toBe(404);
    const mine = await endpoint();
    expect((await api.post(`/api/v1/webhooks/${mine.id}/deliveries/${delivery.id}/retry`)).status).toBe(404);
    expect((await api.post(`${base}/test`, undefined, { key: api.readKey })).status).toBe(403);
  });
});
