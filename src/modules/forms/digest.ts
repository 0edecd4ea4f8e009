// The daily digest of form messages, for sites that ask for one (site settings `form_digest`):
// every instance looks every few minutes, and a digest is queued under a key of its site, day and
// recipient, so exactly one is queued however many instances look. The days before today are
// looked at twice, so a digest whose moment passed while every instance was down still goes.
import type { Database } from '../../db/index.ts';
import { signalWork } from '../../jobs/signal.ts';
import { queueMailOnce } from '../mail/outbox-repo.ts';
import { digestMails } from './mail.ts';
import { digestCandidates } from './repo.ts';

const EVERY_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

/** Queues the digests of the days before `now` not queued yet; answers how many it queued. */
export async function queueDigests(database: Database, publicUrl: string, now = Date.now()): Promise<number> {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const days = [today - 2 * DAY_MS, today - DAY_MS].map((ms) => new Date(ms).toISOString().slice(0, 10));
  let queued = 0;
  for (const site of await digestCandidates(database.db)) {
    for (const day of days) {
      const mails = await digestMails(
        database.db,
        { orgId: site.org_id, projectId: site.project_id },
        day,
        publicUrl,
      );
      for (const mail of mails) if (await queueMailOnce(database.db, mail)) queued++;
    }
  }
  if (queued > 0) signalWork('mail');
  return queued;
}

export class FormDigestSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly publicUrl: string,
    private readonly logger?: { error(obj: object, msg?: string): void },
    private readonly everyMs = EVERY_MS,
  ) {}

  start(): void {
    const sweep = () => {
      this.running = queueDigests(this.database, this.publicUrl).catch((error: unknown) => {
        this.logger?.error({ err: error }, 'form digests: the sweep failed');
      });
    };
    sweep();
    this.timer = setInterval(sweep, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
