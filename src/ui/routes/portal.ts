// The client portal: a client signed in sees only its own projects (published address, builder,
// form submissions, traffic) and its plan's limits, under the agency's name.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { notFound } from '../../modules/common/errors.ts';
import type { RouteDeps } from '../deps.ts';
import { barChart, lineChart } from '../charts.ts';
import { render } from '../page.ts';
import { requireSignedIn, NoOrganization } from '../session.ts';
import { idFromUrl } from '../ids.ts';

export function portalRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { projects, plans, analytics, forms } = deps.services;
  const requireClient = (request: FastifyRequest) => {
    const who = requireSignedIn(request);
    if (!who.client) throw new NoOrganization();
    return { who, client: who.client };
  };
  return async (app) => {
    app.get('/portal', async (request, reply) => {
      const { client } = requireClient(request);
      const [owned, plan] = await Promise.all([
        projects.list(client.orgId, { clientId: client.id }, 100, 0),
        client.planId ? plans.get(client.orgId, client.planId).catch(() => null) : Promise.resolve(null),
      ]);
      return render(request, reply, 'portal', {
        title: `Your websites — ${client.orgName}`,
        agency: client.orgName,
        projects: owned.projects,
        plan,
      });
    });
    app.get<{ Params: { id: string } }>('/portal/projects/:id', async (request, reply) => {
      const { client } = requireClient(request);
      const project = await projects.get(client.orgId, idFromUrl(request.params.id, 'Project'));
      // Another client's project of the same agency is as invisible as another agency's.
      if (project.org_client_id !== client.id) throw notFound('Project');
      const [traffic, submissions] = await Promise.all([
        analytics.report(client.orgId, { days: 30, project_id: project.id }),
        forms.list(client.orgId, project.id, { limit: 50, offset: 0 }),
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
