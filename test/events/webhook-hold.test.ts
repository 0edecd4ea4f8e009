// is_active false holds deliveries; deleting an endpoint drops them. A schedule with a long last
// step keeps held deliveries within it for the length of a test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { Receiver, verify } from '../helpers/receiver.ts';
import { sleep, waitUntil } from '../helpers/wait.ts';

const api = useTestApi(
  {
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0ms,100ms,10s',
    WEBHOOK_TIMEOUT: '1s',
    WEBHOOK_POLL_INTERVAL: '20ms',
  },
  { dispatcher: true },
);
let receiver: Receiver;
let n = 0;
beforeAll(async () => (receiver = await Receiver.start()));
afterAll(() => receiver.close());

async function endpoint() {
  const path = `/hold-${++n}`;
  const res = await api.post('/api/v1/webhooks', { url: receiver.url(path), events: ['client.created'] });
  return { path, id: res.body.webhook.id as string, secret: res.body.webhook.secret as string };
}

const emit = () => api.post('/api/v1/clients', { email: `h${++n}@example.com` });
const log = async (id: string) => (await api.get(`/api/v1/webhooks/${id}/deliveries`)).body.deliveries;
const rows = (webhookId: string) =>
  api.ctx.database.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .execute();
const attemptsOf = (deliveryId: string) =>
  api.ctx.database.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .execute();

describe('held and dropped deliveries', () => {
  it('holds pending deliveries while the endpoint is off and sends them when it is back on', async () => {
    const hook = await endpoint();
    // Switched off while the first attempt is in flight; that attempt fails.
    receiver.on(hook.path, (_r, nth) => {
      if (nth > 1) return {};
      void api.patch(`/api/v1/webhooks/${hook.id}`, { is_active: false });
      return { status: 500, delayMs: 100 };
    });
    await emit();
    await waitUntil(async () => (await log(hook.id))[0]?.attempt_count === 1);
    await sleep(400);
    expect(receiver.at(hook.path)).toHaveLength(1);
    expect((await log(hook.id))[0]).toMatchObject({ status: 'pending', attempt_count: 1 });
    await api.patch(`/api/v1/webhooks/${hook.id}`, { is_active: true });
    const [first, second] = await receiver.waitFor(hook.path, 2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    verify(hook.secret, second!);
    await waitUntil(async () => (await log(hook.id))[0]?.status === 'succeeded');
  });

  it('fails held deliveries that outlive their schedule', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, (_r, nth) => {
      if (nth === 1) void api.patch(`/api/v1/webhooks/${hook.id}`, { is_active: false });
      return { status: 500, delayMs: 100 };
    });
    await emit();
    await waitUntil(async () => (await log(hook.id))[0]?.attempt_count === 1);
    expect(await api.dispatcher!.sweep()).toBe(0);
    expect(await api.dispatcher!.sweep(Date.now() + 60_000)).toBe(1);
    expect((await log(hook.id))[0]).toMatchObject({ status: 'failed', next_attempt_at: null });
  });

  it('drops pending deliveries when the endpoint is deleted, and keeps their record', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, () => ({ status: 503, headers: { 'retry-after': '5' } }));
    await emit();
    await waitUntil(async () => (await log(hook.id))[0]?.attempt_count === 1);
    expect((await api.delete(`/api/v1/webhooks/${hook.id}`)).status).toBe(200);
    const [row] = await rows(hook.id);
    expect(row).toMatchObject({
      status: 'dropped',
      next_attempt_at: null,
      lease_token: null,
      attempt_count: 1,
    });
    expect(await attemptsOf(row!.id)).toHaveLength(1);
    expect((await api.get(`/api/v1/webhooks/${hook.id}/deliveries`)).status).toBe(404);
  });

  it('keeps a delivery dropped when its endpoint is deleted mid-attempt', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, () => {
      void api.delete(`/api/v1/webhooks/${hook.id}`);
      return { status: 500, delayMs: 100 };
    });
    await emit();
    await receiver.waitFor(hook.path, 1);
    const row = await waitUntil(async () => (await rows(hook.id)).find((r) => r.status === 'dropped'));
    await waitUntil(async () => (await attemptsOf(row.id)).length === 1, 2_000, 'the attempt to be recorded');
    await sleep(300);
    expect((await rows(hook.id))[0]!.status).toBe('dropped');
    expect(receiver.at(hook.path)).toHaveLength(1);
  });

  it('sends a test ping to an inactive endpoint', async () => {
    const hook = await endpoint();
    await api.patch(`/api/v1/webhooks/${hook.id}`, { is_active: false });
    const res = await api.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(res.body.attempt.status_code).toBe(200);
    verify(hook.secret, receiver.at(hook.path)[0]!);
  });
});
