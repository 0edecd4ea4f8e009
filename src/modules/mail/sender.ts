// Sends the mail outbox: leases due mail like every other worker, so several instances never
// send one message twice at once, and a process that dies leaves its lease to run out. An SMTP
// server that is down or refuses delays a message (retried with backoff for a week, each try
// logged and counted); after the last try it is marked failed and kept for 30 days.
import type { Database } from '../../db/index.ts';
import { ClaimLoop, type ClaimLoopLogger } from '../../jobs/claim-loop.ts';
import { onWork } from '../../jobs/signal.ts';
import { noTelemetry, type Telemetry } from '../../lib/telemetry.ts';
import type { Mailer } from './mailer.ts';
import { findLeasedMail, leaseDueMails, pruneMails, settleMail } from './outbox-repo.ts';

/** Longer than a try can take (providers/mail.ts bounds each step of one). */
const LEASE_MS = 300_000;
/** Waits after each failed try: a week in all before a message is given up (the form message itself is kept). */
export const MAIL_RETRY_DELAYS_MS = [
  30_000,
  120_000,
  600_000,
  1_800_000,
  3_600_000,
  7_200_000,
  14_400_000,
  28_800_000,
  ...Array<number>(13).fill(43_200_000),
];
/** Sent and given-up mail is kept this long, for an operator to see what went. */
const KEEP_SETTLED_MS = 30 * 86_400_000;

export interface MailSenderLogger extends ClaimLoopLogger {
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

export class MailSender {
  private readonly loop: ClaimLoop<{ id: string; token: string }>;
  private lastPrune = 0;

  constructor(
    private readonly database: Database,
    private readonly mailer: Mailer,
    private readonly opts: { retryDelaysMs?: readonly number[]; pollIntervalMs?: number } = {},
    private readonly logger?: MailSenderLogger,
    private readonly telemetry: Telemetry = noTelemetry,
  ) {
    this.loop = new ClaimLoop({
      name: 'mail sender',
      concurrency: 4,
      pollIntervalMs: opts.pollIntervalMs ?? 5_000,
      claim: async (limit) => {
        await this.prune();
        const { ids, token } = await leaseDueMails(this.database, limit, LEASE_MS);
        return ids.map((id) => ({ id, token }));
      },
      run: (lease) => this.send(lease),
      subscribe: (wake) => onWork('mail', wake),
      logger,
    });
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  stop(graceMs?: number): Promise<void> {
    return this.loop.stop(graceMs);
  }

  private async send(lease: { id: string; token: string }): Promise<void> {
    const mail = await findLeasedMail(this.database.db, lease.id, lease.token);
    if (!mail) return;
    let failure: string | undefined;
    try {
      await this.mailer.send({
        to: mail.to_address,
        subject: mail.subject,
        text: mail.body,
        ...(mail.reply_to ? { replyTo: mail.reply_to } : {}),
      });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    // Settled outside the try: a mail the server took is never tried again because a write failed.
    if (failure === undefined) {
      await settleMail(this.database.db, lease, { status: 'sent' });
      this.telemetry.mailAttempt('sent');
      return;
    }
    const delays = this.opts.retryDelaysMs ?? MAIL_RETRY_DELAYS_MS;
    const tries = Number(mail.attempts);
    if (tries > delays.length) {
      await settleMail(this.database.db, lease, { status: 'failed', error: failure });
      this.telemetry.mailAttempt('failed');
      this.logger?.error({ mailId: mail.id, tries, err: failure }, 'mail given up after its last try');
      return;
    }
    const retryAt = new Date(Date.now() + delays[tries - 1]!).toISOString();
    await settleMail(this.database.db, lease, { status: 'pending', retryAt, error: failure });
    this.telemetry.mailAttempt('retry');
    this.logger?.warn(
      { mailId: mail.id, tries, retryAt, err: failure },
      'mail not sent; it will be tried again',
    );
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < 3_600_000) return;
    this.lastPrune = Date.now();
    await pruneMails(this.database.db, new Date(Date.now() - KEEP_SETTLED_MS).toISOString());
  }
}
