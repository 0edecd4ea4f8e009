// What happens to page views after they are captured: raw rows kept only as long as configured
// while the daily rollups keep the reports whole, visitor sets of past days deleted, views of a
// site deleted meanwhile dropped without losing the others, and the queue flushed on shutdown.
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createContainer } from '../../../src/container.ts';
import { buildServer } from '../../../src/main.ts';
import { IsoTimes } from '../../../src/modules/analytics/recorder.ts';
import {
  PageViewCapture,
  type CaptureLogger,
  type ServedPage,
} from '../../../src/modules/analytics/capture.ts';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject } from '../../helpers/fixtures.ts';
import { rawViews, seedProject, seedViews, times } from '../../helpers/page-views.ts';
import { fetchSite } from '../../helpers/site-client.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test', ANALYTICS_FLUSH_INTERVAL: '1h' });
const db = () => api.ctx.database.db;
const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

const page = (orgId: string, projectId: string): ServedPage => ({
  orgId,
  projectId,
  host: 'x.sites.test',
  url: '/',
  referer: undefined,
  userAgent: DESKTOP,
  ip: '203.0.113.7',
  at: Date.now(),
});
/** A capture of its own on the test's database (its writer thread opens its own connection). */
const newCapture = (rawRetentionDays: number, logger?: CaptureLogger) => {
  const { dataDir, databaseUrl } = api.ctx.config;
  return new PageViewCapture(
    { database: { dataDir, databaseUrl }, flushMs: 60_000, rawRetentionDays },
    logger,
  );
};

describe('retention', () => {
  it('deletes raw views past the retention and visitor sets of past days; reports keep every day', async () => {
    const p = await seedProject(db(), api.org.id);
    await seedViews(api.ctx.database, api.org.id, p, [
      ...times(2, { at: daysAgo(40) }),
      ...times(3, { at: daysAgo(2) }),
      { at: daysAgo(0) },
    ]);
    const capture = newCapture(30);
    await capture.prune();
    await capture.close();

    const raw = await rawViews(db(), { orgId: api.org.id, projectId: p });
    expect(raw.map((v) => v.viewed_at.slice(0, 10)).sort()).toEqual(
      [daysAgo(2), daysAgo(2), daysAgo(2), daysAgo(0)].map((d) => d.slice(0, 10)).sort(),
    );
    const visitorDays = await db()
      .selectFrom('page_view_visitors')
      .select('day')
      .distinct()
      .where('project_id', '=', p)
      .execute();
    expect(visitorDays.map((v) => v.day)).toEqual([daysAgo(0).slice(0, 10)]);
    const { analytics } = (await api.get(`/api/v1/analytics?days=60&project_id=${p}`)).body;
    expect([analytics.totalViews, analytics.uniqueVisitors]).toEqual([6, 6]);
  });

  it('keeps no raw views at all with a retention of 0 days, and still reports them', async () => {
    const p = await seedProject(db(), api.org.id);
    await seedViews(api.ctx.database, api.org.id, p, times(3, { at: daysAgo(0), path: '/x' }), {
      keepRaw: false,
    });
    expect(await rawViews(db(), { orgId: api.org.id, projectId: p })).toEqual([]);
    const { analytics } = (await api.get(`/api/v1/analytics?days=1&project_id=${p}`)).body;
    expect(analytics).toMatchObject({ totalViews: 3, topPages: [{ path: '/x', views: 3 }] });
  });
});

describe('capture', () => {
  it('drops the views of a site deleted before they were written, keeps the others, and never throws', async () => {
    const kept = await seedProject(db(), api.org.id);
    const gone = await seedProject(db(), api.org.id);
    const errors: unknown[] = [];
    const capture = newCapture(30, { warn: () => {}, error: (e) => errors.push(e) });
    capture.record(page(api.org.id, kept));
    capture.record(page(api.org.id, gone));
    capture.record({
      ...page(api.org.id, kept),
      userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)',
    });
    expect((await api.delete(`/api/v1/projects/${gone}`)).status).toBe(200);
    await capture.close();
    expect(errors).toEqual([]);
    expect(capture.stats).toMatchObject({ recorded: 3, written: 1, dropped: 1, failed: 0 });
    const { analytics } = (await api.get('/api/v1/analytics?days=1')).body;
    expect([analytics.totalViews, analytics.uniqueVisitors]).toEqual([1, 1]);
  });

  it('writes the views still queued when the server shuts down', async () => {
    const client = await createClient(api);
    const project = await createProject(api, { client_email: client.email, name: 'Shutdown' });
    await api.post(`/api/v1/projects/${project.id}/publish`, { builtFiles: { 'index.html': '<h1>Hi</h1>' } });
    // A second server on the same database; ANALYTICS_FLUSH_INTERVAL=1h, so only closing writes.
    const second = await createContainer(api.ctx.config);
    const server = await buildServer(second);
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as AddressInfo;
    for (let i = 0; i < 3; i++)
      expect(
        (await fetchSite(port, `${project.subdomain}.sites.test`, '/', { 'user-agent': DESKTOP })).status,
      ).toBe(200);
    expect(
      (await api.get(`/api/v1/analytics?days=1&project_id=${project.id}`)).body.analytics.totalViews,
    ).toBe(0);
    // As a shutdown does: the server closes, then the container (which writes what is queued).
    await server.close();
    await second.close();
    expect((await api.get(`/api/v1/analytics?days=1&project_id=${project.id}`)).body.analytics).toMatchObject(
      { totalViews: 3, uniqueVisitors: 1 },
    );
  });

  it.runIf(process.platform === 'linux')(
    'runs its writer thread at a lower priority than serving (nice 10)',
    async () => {
      const niceOfThreads = () =>
        readdirSync('/proc/self/task').map((tid) => {
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
        });
      const before = niceOfThreads().filter((n) => n === 10).length;
      const capture = newCapture(30);
      const p = await seedProject(db(), api.org.id);
      capture.record(page(api.org.id, p));
      await capture.flush();
      expect(niceOfThreads().filter((n) => n === 10).length).toBe(before + 1);
      await capture.close();
    },
  );
});

describe('IsoTimes', () => {
  it('formats every millisecond as Date.toISOString does, across seconds and days', () => {
    const times = new IsoTimes();
    const start = Date.parse('2026-11-22T23:59:58.000Z');
    for (const ms of [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1999, 2000, 2005, 86_400_000 + 7]) {
      expect(times.of(start + ms)).toBe(new Date(start + ms).toISOString());
    }
    expect(times.of(start - 1)).toBe('2026-11-22T23:59:57.999Z');
  });
});
