// `/`: where a person lands. A fresh install goes to set-up, a visitor to sign-in, a client to
// the portal, an agency member to the overview: counts, recent projects, 30 days of traffic.
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../deps.ts';
import { lineChart } from '../charts.ts';
import { render } from '../page.ts';
import { requireSeat, seatPrincipal } from '../session.ts';

export function overviewRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { accounts, clients, projects, analytics } = deps.services;
  return async (app) => {
    app.get('/', async (request, reply) => {
      if (!request.signedIn) {
        return reply.redirect((await accounts.needsSetup()) ? '/setup' : '/sign-in', 303);
      }
      if (!request.signedIn.org && request.signedIn.client) return reply.redirect('/portal', 303);
      const seat = requireSeat(request);
      const [clientPage, projectPage, active, traffic] = await Promise.all([
        clients.search(seatPrincipal(seat), {}, 1, 0),
        projects.list(seatPrincipal(seat), {}, 6, 0),
        clients.search(seatPrincipal(seat), { status: 'active' }, 1, 0),
        analytics.report(seatPrincipal(seat), { days: 30 }),
      ]);
      return render(request, reply, 'overview', {
        title: 'Overview',
        counts: {
          clients: clientPage.total,
          activeClients: active.total,
          projects: projectPage.total,
          views: traffic.totalViews,
          visitors: traffic.uniqueVisitors,
        },
        recent: projectPage.projects,
        chart: lineChart(traffic.dailyViews, 'Page views per day, last 30 days'),
      });
    });
  };
}
