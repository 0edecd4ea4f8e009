// Every page of the dashboard and the portal, one file per area.
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../plugin.ts';
import { overviewRoutes } from './overview.ts';
import { clientRoutes } from './clients.ts';
import { keyRoutes } from './keys.ts';
import { portalRoutes } from './portal.ts';
import { webhookRoutes } from './webhooks.ts';
import { memberRoutes } from './members.ts';
import { organizationRoutes } from './organization.ts';
import { apiDocsRoutes } from './api-docs.ts';
import { projectRoutes } from './projects.ts';
import { analyticsRoutes } from './analytics.ts';
import { catalogRoutes } from './catalog.ts';

export function dashboardRoutes(deps: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    for (const routes of [overviewRoutes, clientRoutes, keyRoutes, portalRoutes, webhookRoutes, memberRoutes, organizationRoutes, apiDocsRoutes, projectRoutes, analyticsRoutes, catalogRoutes]) await app.register(routes(deps));
  };
}
