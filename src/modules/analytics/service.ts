// Traffic report of an organization, or of one of its projects, over the last `days` UTC days.
import type { Database } from '../../db/index.ts';
import { NotAllowedError } from '../common/errors.ts';
import { visibleProject } from '../access/projects.ts';
import type { Principal } from '../access/principal.ts';
import * as repo from './repo.ts';
import { DEFAULT_DAYS, type Analytics, type AnalyticsQuery } from './schema.ts';
import { utcWindow } from './window.ts';

export class AnalyticsService {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The organization's report, or one project's (a principal limited to one client: its own projects' only). */
  async report(principal: Principal, query: AnalyticsQuery): Promise<Analytics> {
    const { db, engine } = this.database;
    const { orgId } = principal;
    if (query.project_id !== undefined) await visibleProject(db, principal, query.project_id);
    else if (principal.clientId !== undefined)
      throw new NotAllowedError(
        'A client account reads the analytics of one of its websites: give project_id',
      );
    const window = utcWindow(this.now(), query.days ?? DEFAULT_DAYS);
    const scope: repo.ViewScope = {
      orgId,
      projectId: query.project_id,
      from: window.dates[0]!,
      to: window.dates.at(-1)!,
    };
    // Independent aggregates: on PostgreSQL they run on separate pool connections at once; on
    // SQLite they queue on its single connection, which costs nothing extra.
    const [days, pages, referrers, devices] = await Promise.all([
      repo.daily(db, scope),
      repo.topBy(db, engine, scope, 'path'),
      repo.topBy(db, engine, scope, 'referrer'),
      repo.topBy(db, engine, scope, 'device'),
    ]);
    const perDay = new Map(days.map((d) => [d.day, d.views]));
    return {
      totalViews: days.reduce((sum, d) => sum + d.views, 0),
      uniqueVisitors: days.reduce((sum, d) => sum + d.visitors, 0),
      topPages: pages.map((p) => ({ path: p.key, views: p.views })),
      topReferrers: referrers.map((r) => ({ referrer: r.key, views: r.views })),
      dailyViews: window.dates.map((date) => ({ date, views: perDay.get(date) ?? 0 })),
      deviceBreakdown: devices.map((d) => ({ device: d.key, views: d.views })),
    };
  }
}
