// The aggregate SQL itself: engine settings that must not change the numbers, and the window.
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { daily, topBy } from '../../../src/modules/analytics/repo.ts';
import { utcWindow } from '../../../src/modules/analytics/window.ts';
import { useTestApi } from '../../helpers/app.ts';
import { onPostgres } from '../../helpers/database.ts';
import { seedProject, seedViews } from '../../helpers/page-views.ts';

const api = useTestApi();
const db = () => api.ctx.database.db;

describe('the reporting window', () => {
  it('spans whole UTC days up to now, across month ends and leap days', () => {
    expect(utcWindow(new Date('2024-03-01T00:30:00+02:00'), 3)).toEqual({
      from: '2024-02-27T00:00:00.000Z',
      to: '2024-02-29T22:30:00.000Z',
      dates: ['2024-02-27', '2024-02-28', '2024-02-29'],
    });
    expect(utcWindow(new Date('2025-01-01T00:00:00.000Z'), 2).dates).toEqual(['2024-12-31', '2025-01-01']);
  });
});

describe('aggregates on PostgreSQL', () => {
  // The database's own settings must not change the numbers: these run the repo in a transaction
  // that changes the setting and is rolled back.
  it.runIf(onPostgres)('sorts ties in byte order whatever the column collation', async () => {
    const p = await seedProject(db(), api.org.id);
    const at = new Date().toISOString();
    await seedViews(
      api.ctx.database,
      api.org.id,
      p,
      ['/a', '/A', '/b', '/B'].map((path) => ({ at, path })),
    );
    const scope = { orgId: api.org.id, from: '2000-01-01', to: at.slice(0, 10) };
    const rolledBack = new Error('roll back');
    const pages = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`alter table page_view_rollups alter column key type text collate "und-x-icu"`.execute(trx);
        const order = await sql<{
          path: string;
        }>`select key as path from page_view_rollups where scope = ${p} and dimension = 'path' order by key`.execute(
          trx,
        );
        expect(order.rows.map((r) => r.path)).toEqual(['/a', '/A', '/b', '/B']); // the locale order differs
        throw Object.assign(rolledBack, { pages: await topBy(trx, 'postgres', scope, 'path') });
      })
      .catch((error: Error & { pages?: unknown }) =>
        error === rolledBack ? error.pages : Promise.reject(error),
      );
    expect(pages).toEqual(['/A', '/B', '/a', '/b'].map((key) => ({ key, views: 1 })));
  });

  it.runIf(onPostgres)('buckets days in UTC whatever the session time zone', async () => {
    const p = await seedProject(db(), api.org.id);
    await seedViews(api.ctx.database, api.org.id, p, [
      { at: '2025-03-05T23:59:59.999Z' },
      { at: '2025-03-06T00:00:00.000Z' },
    ]);
    const scope = { orgId: api.org.id, projectId: p, from: '2025-03-01', to: '2025-03-10' };
    const days = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`set local time zone 'Pacific/Kiritimati'`.execute(trx);
        return daily(trx, scope);
      });
    expect(days.sort((x, y) => x.day.localeCompare(y.day))).toEqual([
      { day: '2025-03-05', views: 1, visitors: 1 },
      { day: '2025-03-06', views: 1, visitors: 1 },
    ]);
  });
});
