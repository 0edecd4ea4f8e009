import { describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { webhookHeaders } from '../../src/events/signer.ts';
import { generateWebhookSecret } from '../../src/lib/webhook-secret.ts';
import { verify } from '../helpers/receiver.ts';

const body = JSON.stringify({
  id: '0190a8a0-0000-7000-8000-000000000001',
  type: 'client.created',
  timestamp: new Date().toISOString(),
  data: { client: { id: 'x' } },
});
const id = '0190a8a0-0000-7000-8000-000000000001';

function refusedByBoth(secret: string, request: { body: string; headers: Record<string, string> }): void {
  expect(() => new StandardWebhook(secret).verify(request.body, request.headers)).toThrow();
  expect(() => new SvixWebhook(secret).verify(request.body, request.headers)).toThrow();
}

describe('Standard Webhooks signatures', () => {
  it('are verified by standardwebhooks and svix', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders(id, body, [secret]);
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const { standard, svix } = verify(secret, { body, headers });
    expect(standard).toEqual(JSON.parse(body));
    expect(svix).toEqual(JSON.parse(body));
  });

  it('fail for a tampered body, a wrong secret, a stale or future timestamp, another id', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders(id, body, [secret]);
    refusedByBoth(secret, { body: body.replace('client.created', 'client.updated'), headers });
    refusedByBoth(generateWebhookSecret(), { body, headers });
    refusedByBoth(secret, {
      body,
      headers: webhookHeaders(id, body, [secret], new Date(Date.now() - 10 * 60_000)),
    });
    refusedByBoth(secret, {
      body,
      headers: webhookHeaders(id, body, [secret], new Date(Date.now() + 10 * 60_000)),
    });
    refusedByBoth(secret, { body, headers: { ...headers, 'webhook-id': 'msg_other' } });
  });

  it('carry one signature per secret during a rotation, each verifying alone', () => {
    const [next, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = webhookHeaders(id, body, [next, previous]);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    verify(next, { body, headers });
    verify(previous, { body, headers });
    refusedByBoth(generateWebhookSecret(), { body, headers });
  });
});
