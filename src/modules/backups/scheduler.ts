// Scheduled backups: every BACKUP_INTERVAL, counted from the epoch (24h: at midnight UTC), one
// instance of all those sharing the database makes the backup. The interval's number is the run's
// unique `slot`, so only the first instance to ask gets it; a lease, renewed while the backup runs,
// lets another take over when that instance dies, and a failed backup is tried again after
// RETRY_MS. A server started between two slots makes the current one at once if nobody has.
import { newId } from '../../lib/ids.ts';
import { newLease } from '../../jobs/lease.ts';
import { claimSlot } from './repo.ts';
import { LEASE_MS, type BackupsLogger, type BackupsService } from './service.ts';
import type { Database } from '../../db/index.ts';

const RETRY_MS = 15 * 60_000;

export class BackupScheduler {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly backups: BackupsService,
    private readonly database: Database,
    private readonly logger?: BackupsLogger,
    /** How often to look whether a backup is due. */
    private readonly pollMs = Math.min(backups.settings.intervalMs, 30_000),
  ) {}

  start(): void {
    if (this.backups.settings.dirs.length === 0) return;
    this.schedule(1_000);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.tick().finally(() => {
        this.current = undefined;
        this.schedule(this.pollMs);
      });
    }, ms);
    this.timer.unref();
  }

  /** Makes the current slot's backup when no other instance has. */
  async tick(now = Date.now()): Promise<boolean> {
    const { intervalMs, dirs } = this.backups.settings;
    const slot = `${intervalMs}:${Math.floor(now / intervalMs)}`;
    const lease = { id: newId(), ...newLease(LEASE_MS, now) };
    let id: string | undefined;
    try {
      id = await claimSlot(this.database.db, slot, lease, new Date(now - RETRY_MS).toISOString());
    } catch (error) {
      this.logger?.warn({ err: error }, 'backup schedule: could not look for a due backup');
      return false;
    }
    if (!id) return false;
    try {
      await this.backups.runRecorded(id, lease.token, dirs, true);
      return true;
    } catch {
      return false; // recorded and logged by runRecorded
    }
  }

  /** Stops looking; a backup under way gets `graceMs` to finish, then its lease runs out. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (!this.current) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([this.current, grace]);
    clearTimeout(timer);
  }
}
