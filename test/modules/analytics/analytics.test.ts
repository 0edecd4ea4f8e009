import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newId } from '../../../src/lib/ids.ts';
import { useTestApi } from '../../helpers/app.ts';
import { seedProject, seedViews, times, type View } from '../../helpers/page-views.ts';

const api = useTestApi();
const db = () => api.ctx.database.db;

// Requests run at a fixed instant, so the window's edges are known to the millisecond.
const NOW = '2025-03-10T15:30:00.000Z';

const report = async (query = '', key?: string) => {
  const res = await api.get(`/api/v1/analytics${query}`, key === undefined ? {} : { key });
  expect(res.status).toBe(200);
  return res.body.analytics;
};

const views = (list: { views: number }[]) => list.map((d) => d.views);

describe('analytics with a fixed clock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOW));
  });
  afterEach(() => vi.useRealTimers());

  it('computes every number over the window, its first and last day included and the rest excluded', async () => {
    const a = await seedProject(db(), api.org.id, 'A');
    const b = await seedProject(db(), api.org.id, 'B');
    await seedViews(api.ctx.database, api.org.id, a, [
      { at: '2025-03-03T23:59:59.999Z', path: '/old', visitor: 'v9' }, // the day before the window
      { at: '2025-03-04T00:00:00.000Z', path: '/', referrer: 'google.com', visitor: 'v1' }, // its first instant
      { at: '2025-03-05T23:59:59.999Z', path: '/pricing', device: 'mobile', visitor: 'v2' },
      { at: '2025-03-05T10:00:00.000Z', path: '/', device: 'mobile', visitor: 'v2' }, // the same visitor, same day
      {
        at: '2025-03-06T00:00:00.000Z',
        path: '/pricing',
        referrer: 'news.ycombinator.com',
        device: 'mobile',
        visitor: 'v3',
      },
      { at: NOW, path: '/about', device: 'tablet', visitor: 'v4' },
    ]);
    await seedViews(
      api.ctx.database,
      api.org.id,
      b,
      times(3, { at: '2025-03-08T12:00:00.000Z', path: '/', referrer: 'google.com', visitor: 'v5' }),
    );

    const all = await report('?days=7');
    expect(all).toEqual({
      totalViews: 8,
      uniqueVisitors: 5,
      topPages: [
        { path: '/', views: 5 },
        { path: '/pricing', views: 2 },
        { path: '/about', views: 1 },
      ],
      topReferrers: [
        { referrer: 'google.com', views: 4 },
        { referrer: '(direct)', views: 3 },
        { referrer: 'news.ycombinator.com', views: 1 },
      ],
      dailyViews: [
        { date: '2025-03-04', views: 1 },
        { date: '2025-03-05', views: 2 },
        { date: '2025-03-06', views: 1 },
        { date: '2025-03-07', views: 0 },
        { date: '2025-03-08', views: 3 },
        { date: '2025-03-09', views: 0 },
        { date: '2025-03-10', views: 1 },
      ],
      deviceBreakdown: [
        { device: 'desktop', views: 4 },
        { device: 'mobile', views: 3 },
        { device: 'tablet', views: 1 },
      ],
    });

    const onlyA = await report(`?days=7&project_id=${a}`);
    expect([onlyA.totalViews, onlyA.uniqueVisitors]).toEqual([5, 4]);
    expect(views(onlyA.dailyViews)).toEqual([1, 2, 1, 0, 0, 0, 1]);
    const onlyB = await report(`?project_id=${b}&days=7`);
    expect(onlyB).toMatchObject({
      totalViews: 3,
      uniqueVisitors: 1,
      topPages: [{ path: '/', views: 3 }],
      topReferrers: [{ referrer: 'google.com', views: 3 }],
    });
    expect(onlyB.deviceBreakdown).toEqual([{ device: 'desktop', views: 3 }]);

    // A wider window reaches the day before.
    const wider = await report('?days=8');
    expect([wider.totalViews, wider.uniqueVisitors, wider.dailyViews[0]]).toEqual([
      9,
      6,
      { date: '2025-03-03', views: 1 },
    ]);
  });

  it('counts a visitor once per site and day, across batches', async () => {
    const a = await seedProject(db(), api.org.id, 'A');
    const b = await seedProject(db(), api.org.id, 'B');
    const at = '2025-03-10T09:00:00.000Z';
    await seedViews(api.ctx.database, api.org.id, a, times(2, { at, visitor: 'same' }));
    await seedViews(api.ctx.database, api.org.id, a, [
      { at, visitor: 'same' },
      { at, visitor: 'other' },
    ]);
    // Hashes include the site: the same value on another site is another visitor.
    await seedViews(api.ctx.database, api.org.id, b, [{ at, visitor: 'same' }]);
    expect(await report(`?days=1&project_id=${a}`)).toMatchObject({ totalViews: 4, uniqueVisitors: 2 });
    expect(await report('?days=1')).toMatchObject({ totalViews: 5, uniqueVisitors: 3 });
  });

  it("takes a deleted project's views out of the organization's numbers", async () => {
    const gone = await seedProject(db(), api.org.id, 'Gone');
    const kept = await seedProject(db(), api.org.id, 'Kept');
    const at = '2025-03-09T09:00:00.000Z';
    await seedViews(api.ctx.database, api.org.id, gone, [
      ...times(3, { at, path: '/only-gone', referrer: 'gone.example' }),
      { at, path: '/' },
    ]);
    await seedViews(api.ctx.database, api.org.id, kept, times(2, { at, path: '/', device: 'mobile' }));
    expect((await report()).totalViews).toBe(6);
    expect((await api.delete(`/api/v1/projects/${gone}`)).status).toBe(200);
    expect(await report()).toMatchObject({
      totalViews: 2,
      uniqueVisitors: 2,
      topPages: [{ path: '/', views: 2 }],
      topReferrers: [{ referrer: '(direct)', views: 2 }],
      deviceBreakdown: [{ device: 'mobile', views: 2 }],
    });
    const rows = await db()
      .selectFrom('page_view_rollups')
      .select('scope')
      .where('org_id', '=', api.org.id)
      .where('scope', '=', gone)
      .execute();
    expect(rows).toEqual([]);
  });

  it('sorts top lists by views, then key in byte order, and keeps 10', async () => {
    const p = await seedProject(db(), api.org.id);
    const at = '2025-03-09T08:00:00.000Z';
    const seed: View[] = [
      ...times(5, { at, path: '/z', device: 'tablet' }),
      ...times(5, { at, path: '/y', device: 'tablet' }),
      ...times(3, { at, path: '/a', device: 'desktop' }),
      ...times(3, { at, path: '/A', device: 'mobile' }),
      ...Array.from({ length: 8 }, (_, i) => ({
        at,
        path: `/p${i + 1}`,
        device: i < 4 ? 'desktop' : 'mobile',
      })),
    ];
    seed.forEach((v, i) => (v.referrer = i < 12 ? `h${String(i + 1).padStart(2, '0')}.example` : null));
    await seedViews(api.ctx.database, api.org.id, p, seed);

    const result = await report();
    expect(result.totalViews).toBe(24);
    expect(result.uniqueVisitors).toBe(24);
    expect(result.topPages).toEqual([
      { path: '/y', views: 5 },
      { path: '/z', views: 5 },
      { path: '/A', views: 3 },
      { path: '/a', views: 3 },
      ...['/p1', '/p2', '/p3', '/p4', '/p5', '/p6'].map((path) => ({ path, views: 1 })),
    ]);
    expect(result.topReferrers).toEqual([
      { referrer: '(direct)', views: 12 },
      ...Array.from({ length: 9 }, (_, i) => ({ referrer: `h0${i + 1}.example`, views: 1 })),
    ]);
    expect(result.deviceBreakdown).toEqual([
      { device: 'tablet', views: 10 },
      { device: 'desktop', views: 7 },
      { device: 'mobile', views: 7 },
    ]);
  });

  it('reports 30 days by default and up to 365, one entry per day, oldest first', async () => {
    const p = await seedProject(db(), api.org.id);
    await seedViews(api.ctx.database, api.org.id, p, [
      { at: '2024-03-10T23:59:59.999Z' },
      { at: '2024-03-11T00:00:00.000Z' },
      { at: '2025-02-08T23:59:59.999Z' },
      ...times(2, { at: '2025-02-09T00:00:00.000Z' }),
      { at: '2025-03-10T00:00:00.000Z' },
    ]);

    const month = await report();
    expect(month.dailyViews).toHaveLength(30);
    expect(month.dailyViews[0]).toEqual({ date: '2025-02-09', views: 2 });
    expect(month.dailyViews[29]).toEqual({ date: '2025-03-10', views: 1 });
    expect(month.totalViews).toBe(3);

    const year = await report('?days=365');
    expect(year.dailyViews).toHaveLength(365);
    expect(year.dailyViews[0]).toEqual({ date: '2024-03-11', views: 1 });
    expect(year.dailyViews[364].date).toBe('2025-03-10');
    const dates: string[] = year.dailyViews.map((d: { date: string }) => d.date);
    dates.slice(1).forEach((date, i) => expect(Date.parse(date) - Date.parse(dates[i]!)).toBe(86_400_000));
    expect(year.totalViews).toBe(5);

    const today = await report('?days=1');
    expect(today.dailyViews).toEqual([{ date: '2025-03-10', views: 1 }]);
    expect(today.totalViews).toBe(1);
  });
});

describe('analytics scope and validation', () => {
  it('reports zeros for an organization without views', async () => {
    const before = new Date().toISOString().slice(0, 10);
    const result = await report('?days=5');
    const after = new Date().toISOString().slice(0, 10);
    expect(result).toMatchObject({
      totalViews: 0,
      uniqueVisitors: 0,
      topPages: [],
      topReferrers: [],
      deviceBreakdown: [],
    });
    expect(views(result.dailyViews)).toEqual([0, 0, 0, 0, 0]);
    expect([before, after]).toContain(result.dailyViews[4].date);
    expect((await report()).dailyViews).toHaveLength(30);
  });

  it("never counts another organization's views and hides its projects", async () => {
    const mine = await seedProject(db(), api.org.id);
    await seedViews(api.ctx.database, api.org.id, mine, [{ at: new Date().toISOString(), path: '/mine' }]);
    const other = await api.newOrg('Other');
    const theirs = await seedProject(db(), other.org.id);
    await seedViews(
      api.ctx.database,
      other.org.id,
      theirs,
      times(4, { at: new Date().toISOString(), path: '/theirs' }),
    );

    expect((await report()).topPages).toEqual([{ path: '/mine', views: 1 }]);
    expect((await report('', other.readKey)).topPages).toEqual([{ path: '/theirs', views: 4 }]);
    for (const id of [theirs, newId()]) {
      const res = await api.get(`/api/v1/analytics?project_id=${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Project not found' });
    }
  });

  it.each([
    ['?days=0', "'days'"],
    ['?days=366', "'days'"],
    ['?days=abc', "'days'"],
    ['?days=1.5', "'days'"],
    ['?project_id=not-a-uuid', "'project_id'"],
    ['?day=7', "unknown query parameter 'day'"],
  ])('refuses %s', async (query, message) => {
    const res = await api.get(`/api/v1/analytics${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
  });

  it('needs a key with read permission', async () => {
    expect((await api.get('/api/v1/analytics', { key: null })).status).toBe(401);
    expect((await api.get('/api/v1/analytics', { key: api.writeKey })).status).toBe(403);
    expect((await api.get('/api/v1/analytics', { key: api.readKey })).status).toBe(200);
  });
});
