// What the database says about the work in hand, read when metrics are scraped: the webhook
// backlog and its oldest event, generations waiting or running, custom domains by state, and the
// last backups. Each is a count or a time over an index, whatever the number of organizations.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { toIso } from '../../lib/clock.ts';

export interface OperationalStats {
  webhookBacklog: number;
  /** Seconds since the oldest pending delivery's event was recorded; 0 with none pending. */
  webhookOldestSeconds: number;
  generations: Record<string, number>;
  domains: Record<string, number>;
  /** Unix seconds of the last backup that succeeded and of the last that failed; null: none. */
  lastBackupSuccess: number | null;
  lastBackupFailure: number | null;
}

const seconds = (value: string | Date | null | undefined) => (value ? Date.parse(toIso(value)) / 1000 : null);

export async function operationalStats(db: Kysely<DB>, nowMs = Date.now()): Promise<OperationalStats> {
  const [backlog, generations, domains, success, failure] = await Promise.all([
    db
      .selectFrom('webhook_deliveries')
      .where('status', '=', 'pending')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_at').as('oldest')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('generations')
      .where('status', 'in', ['queued', 'running'])
      .groupBy('status')
      .select((eb) => ['status', eb.fn.countAll().as('n')])
      .execute(),
    db
      .selectFrom('project_domains')
      .groupBy('status')
      .select((eb) => ['status', eb.fn.countAll().as('n')])
      .execute(),
    db
      .selectFrom('backup_runs')
      .where('status', '=', 'succeeded')
      .select((eb) => eb.fn.max('finished_at').as('at'))
      .executeTakeFirst(),
    db
      .selectFrom('backup_runs')
      .where('status', '=', 'failed')
      .select((eb) => eb.fn.max('finished_at').as('at'))
      .executeTakeFirst(),
  ]);
  const oldest = seconds(backlog.oldest as string | Date | null);
  return {
    webhookBacklog: Number(backlog.n),
    webhookOldestSeconds: oldest === null ? 0 : Math.max(0, nowMs / 1000 - oldest),
    generations: { queued: 0, running: 0, ...counts(generations) },
    domains: { pending: 0, active: 0, failed: 0, ...counts(domains) },
    lastBackupSuccess: seconds(success?.at as string | Date | null),
    lastBackupFailure: seconds(failure?.at as string | Date | null),
  };
}

function counts(rows: { status: string; n: number | string | bigint }[]): Record<string, number> {
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
