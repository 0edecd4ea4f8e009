// The client portal: a client signed in sees only its own projects (published address, builder,
// form submissions, traffic) and its plan's limits, under the agency's name.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { RouteDeps } from '../deps.ts';
import { clientPrincipal } from '../../modules/access/principal.ts';
import { barChart, lineChart } from '../charts.ts';
import { render } from '../page.ts';
import { requireSignedIn, NoOrganization } from '../session.ts';
import { idFromUrl } from '../ids.ts';

export function portalRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { projects, plans, analytics, forms } = deps.services;
  const requireClient = (request: FastifyRequest) => {
    const who = requireSignedIn(request);
    const principal = clientPrincipal(who);
    if (!who.client || !principal) throw new NoOrganization();
    return { who, client: who.client, principal };
  };
  return async (app) => {
    app.get('/portal', async (request, reply) => {
      const { client, principal } = requireClient(request);
      const [owned, plan] = await Promise.all([
        projects.list(principal, {}, 100, 0),
        client.planId ? plans.get(principal, client.planId).catch(() => null) : Promise.resolve(null),
      ]);
      return render(request, reply, 'portal', {
        title: `Your websites — ${client.orgName}`,
        agency: client.orgName,
        projects: owned.projects,
        plan,
      });
    });
    app.get<{ Params: { id: string } }>('/portal/projects/:id', async (request, reply) => {
      const { client, principal } = requireClient(request);
      // Another client's project of the same agency is as invisible as another agency's.
      const project = await projects.get(principal, idFromUrl(request.params.id, 'Project'));
      const [traffic, submissions] = await Promise.all([
        analytics.report(principal, { days: 30, project_id: project.id }),
        forms.list(principal, project.id, { limit: 50, offset: 0 }),
      ]);
      return render(request, reply, 'portal-project', {
        title: project.name,
        agency: client.orgName,
        project,
        traffic,
        chart: lineChart(traffic.dailyViews, 'Page views per day, last 30 days'),
        pages: barChart(
          traffic.topPages.map((p) => ({ label: p.path, value: p.views })),
          'Top pages',
        ),
        submissions: submissions.submissions,
        submissionTotal: submissions.total,
      });
    });
  };
}
