// Every /api/v1 module, registered by the app factory under the /api/v1 prefix.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../http/context.ts';
import { analyticsRoutes } from './analytics/routes.ts';
import { clientsRoutes } from './clients/routes.ts';
import { filesRoutes } from './files/routes.ts';
import { domainsRoutes } from './domains/routes.ts';
import { generationsRoutes } from './generations/routes.ts';
import { publishingRoutes } from './publishing/routes.ts';
import { submissionsRoutes } from './submissions/routes.ts';
import { plansRoutes } from './plans/routes.ts';
import { projectsRoutes } from './projects/routes.ts';
import { templatesRoutes } from './templates/routes.ts';
import { webhooksRoutes } from './webhooks/routes.ts';
import { webhookDeliveriesRoutes } from './webhooks/deliveries-routes.ts';

export const apiModules: ((ctx: AppContext) => FastifyPluginAsyncTypebox)[] = [
  clientsRoutes,
  projectsRoutes,
  templatesRoutes,
  plansRoutes,
  analyticsRoutes,
  webhooksRoutes,
  webhookDeliveriesRoutes,
  generationsRoutes,
  filesRoutes,
  publishingRoutes,
  domainsRoutes,
  submissionsRoutes,
];
