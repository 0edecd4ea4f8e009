// Every /api/v1 route module, registered by the app factory under the /api/v1 prefix. Each is
// thin: schema, permission (by method, in the guard), one service call, the answer's shape.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from './deps.ts';
import { analyticsRoutes } from './analytics.ts';
import { clientsRoutes } from './clients.ts';
import { filesRoutes } from './files.ts';
import { domainsRoutes } from './domains.ts';
import { generationsRoutes } from './generations.ts';
import { publishingRoutes } from './publishing.ts';
import { formsRoutes } from './forms.ts';
import { plansRoutes } from './plans.ts';
import { projectsRoutes } from './projects.ts';
import { templatesRoutes } from './templates.ts';
import { webhooksRoutes } from './webhooks.ts';
import { webhookDeliveriesRoutes } from './webhook-deliveries.ts';
import { versionsRoutes } from './versions.ts';
import { buildLinksRoutes } from './build-links.ts';
import { billingRoutes } from './billing.ts';
import { siteSettingsRoutes } from './site-settings.ts';

export const apiRoutes: ((deps: RouteDeps) => FastifyPluginAsyncTypebox)[] = [
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
  versionsRoutes,
  domainsRoutes,
  siteSettingsRoutes,
  formsRoutes,
  buildLinksRoutes,
  billingRoutes,
];
