// Secrets an organization hands Sitewright (an AI model's key; next, a payment processor's) are
// sealed before they reach the database, with a key the database does not hold: SECRETS_KEY, or
// on the embedded default a key file made once in DATA_DIR (container.ts). AES-256-GCM, with the
// record the secret belongs to as associated data: a sealed value copied into another
// organization's row does not open there.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** 32 bytes written as base64 (`openssl rand -base64 32`) or as 64 hex digits; undefined otherwise. */
export function parseSecretsKey(value: string): Buffer | undefined {
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(text)
      ? Buffer.from(text, 'base64')
      : undefined;
  return key?.length === 32 ? key : undefined;
}

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('a secrets key is 32 bytes');
  }

  /** Names the key without revealing it (a backup's manifest records which key its secrets need). */
  fingerprint(): string {
    return createHmac('sha256', this.key)
      .update('sitewright secrets key fingerprint')
      .digest('hex')
      .slice(0, 16);
  }

  /** `context` names what the secret belongs to ("ai_models:<org id>"). */
  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** The secret, or undefined when it was sealed with another key or for another record. */
  open(sealed: string, context: string): string | undefined {
    const [version, iv, body] = sealed.split('.');
    if (version !== VERSION || !iv || !body) return undefined;
    try {
      const bytes = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - 16)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
