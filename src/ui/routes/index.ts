// Every page of the dashboard, the portal and the builder, one file per area.
import type { FastifyPluginAsync } from 'fastify';
import type { RouteDeps } from '../deps.ts';
import { plainQuery } from '../query.ts';
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
import { builderRoutes } from './builder.ts';
import { builderActionRoutes } from './builder-actions.ts';
import { buildRoutes } from './build.ts';
import { buildLinkSettingsRoutes } from './build-link-settings.ts';
import { oauthConsentRoutes } from './oauth-consent.ts';
import { aiModelRoutes } from './ai-model.ts';
import { appMount, embedMount } from '../builder/mount.ts';
import { embedPageRoutes } from './embed-pages.ts';
import { embeddingRoutes } from './embedding.ts';
import { billingSettingsRoutes } from './billing-settings.ts';
import { portalBillingRoutes } from './portal-billing.ts';
import { backupRoutes } from './backups.ts';

export function dashboardRoutes(deps: RouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', plainQuery);
    for (const routes of [
      overviewRoutes,
      clientRoutes,
      keyRoutes,
      portalRoutes,
      portalBillingRoutes,
      webhookRoutes,
      memberRoutes,
      organizationRoutes,
      apiDocsRoutes,
      projectRoutes,
      analyticsRoutes,
      catalogRoutes,
      buildRoutes,
      buildLinkSettingsRoutes,
      aiModelRoutes,
      embeddingRoutes,
      billingSettingsRoutes,
      backupRoutes,
      oauthConsentRoutes,
    ])
      await app.register(routes(deps));
    // The builder, for the dashboard and the portal, and in an embed frame (builder/mount.ts).
    for (const mount of [appMount(deps.services), embedMount(deps.services)]) {
      await app.register(builderRoutes(deps, mount));
      await app.register(builderActionRoutes(deps, mount));
    }
    await app.register(embedPageRoutes(deps));
  };
}
