// What every part of billing shares: the database, the processor, the secrets box and where the
// installation answers. Secrets are sealed for their connection (the record they belong to).
import type { Database } from '../../db/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import { bool } from '../../db/executor.ts';
import type { SecretBox } from '../../lib/secrets.ts';
import { toIso } from '../../lib/clock.ts';
import { conflict, upstream } from '../common/errors.ts';
import { ProcessorError, type AccountRef, type PaymentProcessor } from './processor.ts';
import type { ConnectionRow } from './repo.ts';
import type { BillingConnection } from './schema.ts';

export interface BillingDeps {
  database: Database;
  processor: PaymentProcessor;
  /** Undefined: no secret can be kept (a shared database without SECRETS_KEY). */
  secrets: SecretBox | undefined;
  secretsMissing: string;
  publicUrl: string;
  /** Sends payment links to clients; undefined where none is sent (the CLI). */
  mailer?: Mailer | undefined;
  logger?: { warn(obj: object, msg?: string): void } | undefined;
}

export const keyContext = (connectionId: string) => `billing_key:${connectionId}`;
export const webhookContext = (connectionId: string) => `billing_webhook:${connectionId}`;
export const platformContext = (accountId: string, livemode: boolean | number) =>
  `billing_platform:${accountId}:${livemode === true || livemode === 1 ? 'live' : 'test'}`;

export function webhookUrl(publicUrl: string, connectionId: string): string {
  return `${new URL(publicUrl).origin}/webhooks/stripe/${connectionId}`;
}

/** Whose account calls act on; undefined when the kept key cannot be opened. */
export function refOf(deps: BillingDeps, row: ConnectionRow): AccountRef | undefined {
  if (row.method === 'connect') return { account: row.account_id };
  const key = row.key_sealed ? deps.secrets?.open(row.key_sealed, keyContext(row.id)) : undefined;
  return key ? { key } : undefined;
}

/** The ref of a live connection, or a conflict saying what the owner must do. */
export function requireRef(deps: BillingDeps, row: ConnectionRow): AccountRef {
  const ref = refOf(deps, row);
  if (!ref)
    throw conflict(
      "The connected Stripe key cannot be read any more (the installation's secrets key changed): an owner connects billing again in Settings → Billing",
    );
  return ref;
}

export function toConnection(deps: BillingDeps, row: ConnectionRow): BillingConnection {
  const method = row.method === 'connect' ? 'connect' : 'key';
  return {
    id: row.id,
    method,
    account_id: row.account_id,
    account_name: row.account_name,
    livemode: bool(row.livemode),
    key_kind: row.key_kind === 'secret' ? 'secret' : row.key_kind === 'restricted' ? 'restricted' : null,
    key_hint: row.key_hint,
    webhook_url:
      method === 'connect'
        ? `${new URL(deps.publicUrl).origin}/webhooks/stripe/connect`
        : webhookUrl(deps.publicUrl, row.id),
    connected_at: toIso(row.connected_at),
    usable: method === 'connect' || refOf(deps, row) !== undefined,
  };
}

/** The processor's refusal as the core's error (502): the message says why, never a key. */
export async function processorCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ProcessorError) throw upstream(`Stripe: ${error.message}`);
    throw error;
  }
}
