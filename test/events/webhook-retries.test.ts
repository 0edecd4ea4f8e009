import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { Receiver, verify } from '../helpers/receiver.ts';
import { sleep, waitUntil } from '../helpers/wait.ts';

const api = useTestApi(
  {
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0ms,50ms,100ms',
    WEBHOOK_TIMEOUT: '300ms',
    WEBHOOK_POLL_INTERVAL: '20ms',
    WEBHOOK_DISABLE_AFTER: '400ms',
  },
  { dispatcher: true },
);
let receiver: Receiver;
let n = 0;
beforeAll(async () => (receiver = await Receiver.start()));
afterAll(() => receiver.close());

async function endpoint() {
  const path = `/retry-${++n}`;
  const res = await api.post('/api/v1/webhooks', { url: receiver.url(path), events: ['client.created'] });
  return { path, id: res.body.webhook.id as string, secret: res.body.webhook.secret as string };
}

const emit = () => api.post('/api/v1/clients', { email: `c${++n}@example.com` });
const log = async (id: string) => (await api.get(`/api/v1/webhooks/${id}/deliveries`)).body.deliveries;
const webhook = async (id: string) => (await api.get(`/api/v1/webhooks/${id}`)).body.webhook;

describe('webhook retries', () => {
  it('retries failures on the schedule with the same webhook-id, and succeeds on a 2xx', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, (_r, nth) => (nth < 3 ? { status: 500, body: `fail ${nth}` } : { status: 204 }));
    await emit();
    const attempts = await receiver.waitFor(hook.path, 3);
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    for (const a of attempts) verify(hook.secret, a);
    const [first, second, third] = attempts.map((a) => a.at);
    // 50 ms and 100 ms, each +-10 % jitter, plus claiming latency.
    expect(second! - first!).toBeGreaterThanOrEqual(44);
    expect(third! - second!).toBeGreaterThanOrEqual(89);
    expect(third! - first!).toBeLessThan(1_000);
    const [delivery] = await waitUntil(async () =>
      (await log(hook.id))[0]?.status === 'succeeded' ? log(hook.id) : null,
    );
    expect(delivery.attempt_count).toBe(3);
    expect(delivery.attempts.map((a: any) => [a.status_code, a.response_body])).toEqual([
      [500, 'fail 1'],
      [500, 'fail 2'],
      [204, ''],
    ]);
  });

  it('marks a delivery failed when the schedule runs out, never dropping it', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, () => ({ status: 503 }));
    await emit();
    await receiver.waitFor(hook.path, 3);
    const [delivery] = await waitUntil(async () =>
      (await log(hook.id))[0]?.status === 'failed' ? log(hook.id) : null,
    );
    expect(delivery).toMatchObject({ attempt_count: 3, next_attempt_at: null });
    await sleep(250);
    expect(receiver.at(hook.path)).toHaveLength(3);
  });

  it('records a timeout as a failed attempt with a clear error', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, (_r, nth) => (nth === 1 ? { delayMs: 2_000 } : {}));
    await emit();
    const [delivery] = await waitUntil(async () =>
      (await log(hook.id))[0]?.status === 'succeeded' ? log(hook.id) : null,
    );
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: 'timed out after 300ms' });
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(290);
  });

  it('keeps the first 2 KB of a response body, whatever bytes it holds', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, () => ({ status: 400, body: 'bad\u0000input ' + 'x'.repeat(5_000) }));
    await emit();
    const [delivery] = await waitUntil(async () =>
      (await log(hook.id))[0]?.status === 'failed' ? log(hook.id) : null,
    );
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts[0].response_body).toMatch(/^badinput x+$/);
    expect(delivery.attempts[0].response_body.length).toBe(2047);
  });

  it('does not follow redirects', async () => {
    const hook = await endpoint();
    const target = `/redirect-target-${n}`;
    receiver.on(hook.path, () => ({ status: 302, headers: { location: receiver.url(target) } }));
    await emit();
    const [delivery] = await waitUntil(async () =>
      (await log(hook.id))[0]?.status === 'failed' ? log(hook.id) : null,
    );
    expect(delivery.attempts[0]).toMatchObject({
      status_code: 302,
      error: `redirect to ${receiver.url(target)} not followed`,
    });
    expect(receiver.at(target)).toHaveLength(0);
  });

  it('honours Retry-After on 429 and 503', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, (_r, nth) => (nth === 1 ? { status: 429, headers: { 'retry-after': '1' } } : {}));
    await emit();
    const [first, second] = await receiver.waitFor(hook.path, 2, 3_000);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
  });

  it('switches the endpoint off on 410 Gone and holds its deliveries', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, () => ({ status: 410 }));
    await emit();
    const off = await waitUntil(async () =>
      (await webhook(hook.id)).is_active === false ? webhook(hook.id) : null,
    );
    expect(off.disabled_reason).toMatch(/^the endpoint answered 410 Gone at /);
    await sleep(200);
    expect(receiver.at(hook.path)).toHaveLength(1);
    const [held] = await log(hook.id);
    expect(held).toMatchObject({ status: 'pending', attempt_count: 1 });
    await emit();
    expect(await log(hook.id)).toHaveLength(1);
    const on = await api.patch(`/api/v1/webhooks/${hook.id}`, { is_active: true });
    expect(on.body.webhook).toMatchObject({ is_active: true, disabled_reason: null });
  });

  it('switches off an endpoint that fails continuously for WEBHOOK_DISABLE_AFTER', async () => {
    const hook = await endpoint();
    receiver.on(hook.path, () => ({ status: 500 }));
    for (let i = 0; i < 8 && (await webhook(hook.id)).is_active; i++) {
      await emit();
      await sleep(100);
    }
    const off = await waitUntil(async () =>
      (await webhook(hook.id)).is_active === false ? webhook(hook.id) : null,
    );
    expect(off.disabled_reason).toMatch(/^every attempt failed since .* \(more than 400ms\)$/);
  });

  it('a success ends a run of failures', async () => {
    const hook = await endpoint();
    let failing = true;
    receiver.on(hook.path, () => (failing ? { status: 500 } : {}));
    await emit();
    await receiver.waitFor(hook.path, 2);
    failing = false;
    await waitUntil(async () => (await log(hook.id))[0]?.status === 'succeeded');
    await sleep(450);
    // Without the success in between, this second run would already count as 450 ms long.
    failing = true;
    await emit();
    await receiver.waitFor(hook.path, 5);
    failing = false;
    await waitUntil(async () => (await log(hook.id)).every((d: any) => d.status === 'succeeded'));
    expect((await webhook(hook.id)).is_active).toBe(true);
  });
});
