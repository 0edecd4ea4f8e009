// SQL of the mail outbox (migration 027): queued in the caller's transaction, leased by the
// sender like every other job (jobs/lease.ts), and settled under the lease's token.
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { insertInBatches } from '../../db/batches.ts';
import { leaseDue, type Leased } from '../../jobs/lease.ts';
import { newId } from '../../lib/ids.ts';

export interface QueuedMail {
  orgId: string;
  projectId: string | null;
  kind: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  /** Queued at most once under this key (a day's digest); ignored when queued before. */
  dedupeKey?: string;
}

export async function queueMails(trx: Executor, mails: QueuedMail[]): Promise<void> {
  if (mails.length === 0) return;
  await insertInBatches(trx, 'mail_outbox', mails.map(outboxRow));
}

/** Queues a mail under its dedupe key; false when one was queued under it before. */
export async function queueMailOnce(
  db: Executor,
  mail: QueuedMail & { dedupeKey: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('mail_outbox')
    .values(outboxRow(mail))
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Whether mail of `kind` went to `address` (any case) about the project since `since`. */
export async function mailedSince(
  db: Executor,
  mail: { orgId: string; projectId: string; kind: string; address: string },
  since: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where('org_id', '=', mail.orgId)
    .where('project_id', '=', mail.projectId)
    .where('kind', '=', mail.kind)
    .where((eb) => eb(eb.fn('lower', ['to_address']), '=', mail.address.toLowerCase()))
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row !== undefined;
}

function outboxRow(mail: QueuedMail) {
  const now = new Date().toISOString();
  return {
    id: newId(),
    org_id: mail.orgId,
    project_id: mail.projectId,
    kind: mail.kind,
    to_address: mail.to,
    reply_to: mail.replyTo,
    subject: mail.subject,
    body: mail.text,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
    dedupe_key: mail.dedupeKey ?? null,
  };
}

export function leaseDueMails(database: Database, limit: number, leaseMs: number): Promise<Leased> {
  return leaseDue(database, 'mail_outbox', {
    limit,
    leaseMs,
    statuses: ['pending', 'sending'],
    leasedStatus: 'sending',
  });
}

export function findLeasedMail(db: Executor, id: string, token: string) {
  return db
    .selectFrom('mail_outbox')
    .select(['id', 'to_address', 'reply_to', 'subject', 'body', 'attempts'])
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .executeTakeFirst();
}

/** Settles a leased mail: sent, due again at `retryAt`, or given up (`failed`). */
export async function settleMail(
  db: Executor,
  lease: { id: string; token: string },
  outcome: { status: 'sent' | 'pending' | 'failed'; retryAt?: string; error?: string },
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .updateTable('mail_outbox')
    .set({
      status: outcome.status,
      lease_until: null,
      lease_token: null,
      updated_at: now,
      last_error: outcome.error ?? null,
      ...(outcome.status === 'sent' ? { sent_at: now } : {}),
      ...(outcome.retryAt ? { next_attempt_at: outcome.retryAt } : {}),
    })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.token)
    .execute();
}

/** Removes settled mail older than `before` (what went, and what was given up, is kept a while). */
export async function pruneMails(db: Executor, before: string): Promise<void> {
  await db
    .deleteFrom('mail_outbox')
    .where('status', 'in', ['sent', 'failed'])
    .where('updated_at', '<', before)
    .execute();
}
