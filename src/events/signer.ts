// Standard Webhooks v1 signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<body>" keyed with the base64-decoded part of the
// "whsec_..." secret. The npm libraries `standardwebhooks` and `svix` verify these unchanged.
import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';

export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers. With several secrets (during a rotation) the signature
 * header lists one signature per secret, space-separated; receivers accept any that matches.
 */
export function webhookHeaders(
  id: string,
  body: string,
  secrets: string[],
  at: Date = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => sign(s, id, timestamp, body)).join(' '),
  };
}
