// Analytics: daily views as a line chart, top pages, referrers and devices as bars, each with its
// numbers in a table; 7 to 365 days; every project or one.
import type { FastifyPluginAsync } from 'fastify';
import { isUuid } from '../../lib/ids.ts';
import type { RouteDeps } from '../deps.ts';
import { barChart, lineChart } from '../charts.ts';
import { render } from '../page.ts';
import { requireSeat, seatPrincipal } from '../session.ts';

const DAY_CHOICES = [7, 30, 90, 365];

export function analyticsRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { analytics, projects } = deps.services;
  return async (app) => {
    app.get<{ Querystring: { days?: string; project?: string } }>('/analytics', async (request, reply) => {
      const seat = requireSeat(request);
      const days = DAY_CHOICES.includes(Number(request.query.days)) ? Number(request.query.days) : 30;
      const projectId =
        request.query.project && isUuid(request.query.project)
          ? request.query.project.toLowerCase()
          : undefined;
      // Another organization's project is a 404 page, as everywhere.
      const project = projectId ? await projects.get(seatPrincipal(seat), projectId) : null;
      const [report, projectPage] = await Promise.all([
        analytics.report(seatPrincipal(seat), { days, ...(project ? { project_id: project.id } : {}) }),
        projects.list(seatPrincipal(seat), {}, 100, 0),
      ]);
      return render(request, reply, 'analytics', {
        title: 'Analytics',
        days,
        dayChoices: DAY_CHOICES,
        project,
        projects: projectPage.projects,
        report,
        chart: lineChart(report.dailyViews, `Page views per day, last ${days} days`),
        pages: barChart(
          report.topPages.map((p) => ({ label: p.path, value: p.views })),
          'Top pages',
        ),
        referrers: barChart(
          report.topReferrers.map((r) => ({ label: r.referrer, value: r.views })),
          'Top referrers',
        ),
        devices: barChart(
          report.deviceBreakdown.map((d) => ({ label: d.device, value: d.views })),
          'Devices',
        ),
      });
    });
  };
}
