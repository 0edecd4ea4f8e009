// Connect-time SSRF protection with the dev flag off. Registration refuses these URLs, so each
// case writes its URL straight into the database, as a host whose DNS changed would look.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { waitUntil } from '../helpers/wait.ts';

const api = useTestApi(
  {
    WEBHOOKS_ALLOW_PRIVATE: 'false',
    WEBHOOK_RETRY_SCHEDULE: '0ms,20ms',
    WEBHOOK_TIMEOUT: '2s',
    WEBHOOK_POLL_INTERVAL: '20ms',
  },
  { dispatcher: true },
);

async function endpointAt(url: string) {
  const res = await api.post('/api/v1/webhooks', {
    url: 'https://hooks.example.com/in',
    events: ['client.created'],
  });
  const id = res.body.webhook.id as string;
  await api.ctx.database.db.updateTable('webhooks').set({ url }).where('id', '=', id).execute();
  return id;
}

const GUARD = /^refused by the SSRF guard: .*a private, loopback, link-local or reserved address$/;

describe('registration', () => {
  it.each([
    'https://localhost/',
    'https://localhost./in',
    'https://LOCALHOST../in',
    'https://printer.local/',
    'https://db.internal./',
    'https://127.0.0.1./',
    'https://10.0.0.1/',
    'https://[::1]/',
    // Deprecated and embedded-IPv4 forms of refused addresses (the URL parser writes them in hex).
    'https://[::127.0.0.1]/',
    'https://[::7f00:1]/',
    'https://[::a9fe:a9fe]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:0:7f00:1]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[64:ff9b::a00:1]/',
    'https://[64:ff9b:1::808:808]/',
    'https://[2002:7f00:1::1]/',
    'https://[2002:a9fe:a9fe::1]/',
    'https://[2001::1]/',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'https://[fec0::1]/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://[ff02::1]/',
    'https://[::]/',
    'https://[2001:db8::1]/',
  ])('refuses %s with 400 and registers nothing', async (url) => {
    const res = await api.post('/api/v1/webhooks', { url, events: ['client.created'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(
      /^field 'url' must not point at a (local host name|private, loopback or reserved address)$/,
    );
    expect((await api.get('/api/v1/webhooks')).body.webhooks).toEqual([]);
  });

  it.each([
    'https://[2606:4700::1111]/',
    'https://[::ffff:8.8.8.8]/',
    'https://[64:ff9b::8.8.8.8]/',
    'https://[2002:808:808::1]/',
    'https://8.8.8.8/',
  ])('registers %s, which embeds or is a public address', async (url) => {
    const res = await api.post('/api/v1/webhooks', { url, events: ['client.created'] });
    expect(res.status).toBe(201);
    await api.delete(`/api/v1/webhooks/${res.body.webhook.id}`);
  });
});

describe('SSRF guard at connect time', () => {
  it.each([
    ['loopback', 'https://127.0.0.1:9443/'],
    ['10/8', 'https://10.1.2.3/'],
    ['172.16/12', 'https://172.16.5.4/'],
    ['192.168/16', 'https://192.168.1.1/'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['CGNAT', 'https://100.64.0.1/'],
    ['multicast', 'https://224.0.0.1/'],
    ['unspecified', 'https://0.0.0.0/'],
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv6 ULA', 'https://[fc00::1]/'],
    ['IPv6 ULA fd', 'https://[fd12:3456::1]/'],
    ['IPv6 link-local', 'https://[fe80::1]/'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/'],
    ['IPv4-compatible loopback', 'https://[::127.0.0.1]:9443/'],
    ['IPv4-compatible loopback, hex', 'https://[::7f00:1]:9443/'],
    ['IPv4-compatible metadata', 'https://[::a9fe:a9fe]/'],
    ['SIIT loopback', 'https://[::ffff:0:7f00:1]/'],
    ['NAT64 loopback', 'https://[64:ff9b::7f00:1]/'],
    ['local-use NAT64', 'https://[64:ff9b:1::808:808]/'],
    ['6to4 of loopback', 'https://[2002:7f00:1::1]/'],
    ['Teredo', 'https://[2001::1]/'],
    ['site-local', 'https://[fec0::1]/'],
    ['IPv6 multicast', 'https://[ff02::1]/'],
    ['IPv6 unspecified', 'https://[::]/'],
    ['a name resolving to loopback', 'https://localhost:9443/'],
  ])('refuses %s (%s) and records the failed attempt', async (_name, url) => {
    const id = await endpointAt(url);
    const res = await api.post(`/api/v1/webhooks/${id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.attempt).toMatchObject({ status_code: null, response_body: null });
    expect(res.body.attempt.error).toMatch(GUARD);
    expect(res.body.delivery).toMatchObject({ status: 'failed', attempt_count: 1 });
  });

  it('names the address a host name resolved to', async () => {
    const id = await endpointAt('https://localhost:9443/');
    const { body } = await api.post(`/api/v1/webhooks/${id}/test`);
    expect(body.attempt.error).toMatch(
      /^refused by the SSRF guard: localhost resolves to (127\.0\.0\.1|::1), /,
    );
  });

  it('refuses plain http without the dev flag', async () => {
    const id = await endpointAt('http://hooks.example.com/in');
    const { body } = await api.post(`/api/v1/webhooks/${id}/test`);
    expect(body.attempt.error).toBe('refused: http URLs are not delivered to; endpoints must use https');
  });

  it('records refused event deliveries as failed attempts, through the whole schedule', async () => {
    const id = await endpointAt('https://[::ffff:10.0.0.1]/hook');
    await api.post('/api/v1/clients', { email: 'ssrf@example.com' });
    const delivery = await waitUntil(async () =>
      (await api.get(`/api/v1/webhooks/${id}/deliveries`)).body.deliveries.find(
        (d: any) => d.status === 'failed',
      ),
    );
    expect(delivery.attempts).toHaveLength(2);
    for (const attempt of delivery.attempts) expect(attempt.error).toMatch(GUARD);
  });
});
