// Every service of the core, built once from explicit collaborators. The server, the CLI, the
// worker process and the tests get them from the container (src/container.ts); a way in (REST
// routes, the site edge, later pages and MCP tools) calls these and nothing below them.
import type { CoreSettings } from './settings.ts';
import { ContentWriter } from './content/writer.ts';
import type { Database } from '../db/index.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { Throttle } from '../lib/throttle.ts';
import { AccountsService } from './accounts/service.ts';
import { MembersService } from './accounts/members.ts';
import { PortalService } from './accounts/portal.ts';
import type { Mailer } from './mail/mailer.ts';
import { AnalyticsService } from './analytics/service.ts';
import { PageViewCapture } from './analytics/capture.ts';
import { ClientsService } from './clients/service.ts';
import { DomainsService } from './domains/service.ts';
import { FilesService } from './files/service.ts';
import { FormsService } from './forms/service.ts';
import { GenerationsService } from './generations/service.ts';
import type { ConnectEndpoint, ProviderRegistry } from './generations/provider.ts';
import { OrgModelService } from './generations/org-model.ts';
import type { SecretBox } from '../lib/secrets.ts';
import { OrgService } from './orgs/service.ts';
import { PlansService } from './plans/service.ts';
import { ProjectsService } from './projects/service.ts';
import { PreviewSigner } from './publishing/preview-signer.ts';
import { PreviewLinks } from './publishing/preview-links.ts';
import { PublishingService } from './publishing/service.ts';
import { DeploymentsService } from './publishing/deployments.ts';
import { VersionsService } from './versions/service.ts';
import { SitesService } from './publishing/sites.ts';
import { TemplatesService } from './templates/service.ts';
import { DeliveriesService } from './webhooks/deliveries-service.ts';
import { WebhooksService } from './webhooks/service.ts';
import { BuildLinksService } from './build-links/service.ts';
import { OAuthService } from './oauth/service.ts';
import { EmbedService } from './embed/service.ts';
import { BillingService } from './billing/service.ts';
import type { PaymentProcessor } from './billing/processor.ts';
import { BackupsService } from './backups/service.ts';
import { SiteSettingsService } from './site-settings/service.ts';

/** Why a key cannot be kept: only with a shared database and no SECRETS_KEY (container.ts). */
export const SECRETS_MISSING =
  'this installation has no secrets key. With DATABASE_URL set, every instance needs the same SECRETS_KEY (32 random bytes, for example from `openssl rand -base64 32`); ask its operator to set it';

export interface Services {
  orgs: OrgService;
  clients: ClientsService;
  plans: PlansService;
  templates: TemplatesService;
  projects: ProjectsService;
  files: FilesService;
  publishing: PublishingService;
  deployments: DeploymentsService;
  versions: VersionsService;
  /** What published sites and preview links serve: read by the site edge. */
  sites: SitesService;
  domains: DomainsService;
  /** A site's name, language, description, shared-link picture, icon, facts and form mail. */
  siteSettings: SiteSettingsService;
  forms: FormsService;
  analytics: AnalyticsService;
  /** Page views of served sites, written by a thread of their own. */
  capture: PageViewCapture;
  generations: GenerationsService;
  /** The AI model an organization connects itself (Settings → AI model). */
  aiModels: OrgModelService;
  webhooks: WebhooksService;
  deliveries: DeliveriesService;
  accounts: AccountsService;
  members: MembersService;
  portal: PortalService;
  /** The build link: `/build` visits and links made through the API. */
  buildLinks: BuildLinksService;
  /** Embed sessions and the organization's embed origins (the embeddable builder). */
  embed: EmbedService;
  /** The OAuth 2.1 authorization server for AI clients of the MCP server. */
  oauth: OAuthService;
  /** Client billing through the organization's Stripe account. */
  billing: BillingService;
  /** Backups of the whole installation, made by `sitewright backup` and the schedule. */
  backups: BackupsService;
}

export interface ServiceDeps {
  config: CoreSettings;
  database: Database;
  providers: ProviderRegistry;
  /** Connects an organization's own endpoint (Settings → AI model). */
  connectEndpoint: ConnectEndpoint;
  /** Counts form posts per site and address (a separate key space from the API's). */
  formLimiter: RateLimiter;
  /** Slows down attempts on accounts (sign-ins, resets, sign-ups) per account and per address. */
  accountThrottle: Throttle;
  mailer: Mailer;
  /** The payment processor (providers/stripe/). */
  processor: PaymentProcessor;
  /** Seals secrets organizations hand over (their AI keys); undefined: none can be kept. */
  secrets?: SecretBox;
  logger?: {
    info(obj: object, msg?: string): void;
    warn(obj: object, msg?: string): void;
    error(obj: object, msg?: string): void;
  };
  /** Sitewright's version, written into backups' manifests. */
  version: string;
}

export function createServices({
  config,
  database,
  providers,
  connectEndpoint,
  formLimiter,
  accountThrottle,
  mailer,
  processor,
  secrets,
  logger,
  version,
}: ServiceDeps): Services {
  const preview = new PreviewSigner(database, config.sites.previewSecret);
  const previewLinks = new PreviewLinks(preview, config.sites);
  // The one way a project's content changes (lock, checks, files, version), for every writer.
  const content = new ContentWriter(database, config.files);
  const orgs = new OrgService(database);
  // Billing is made below; a client's change reaches it once it exists.
  const clients: ClientsService = new ClientsService(
    database,
    (orgId: string, clientId: string): Promise<void> => billing.clientChanged(orgId, clientId),
  );
  const { publicUrl } = config;
  const accounts = new AccountsService(database, orgs, mailer, accountThrottle, {
    publicUrl,
    ...config.accounts,
  });
  const templates = new TemplatesService(database);
  const projects = new ProjectsService(database, config.publicUrl, content);
  const aiModels = new OrgModelService(database, providers, connectEndpoint, {
    allowPrivateEndpoints: config.ai.allowPrivateEndpoints,
    secrets,
    secretsMissing: SECRETS_MISSING,
  });
  const generations = new GenerationsService(database, aiModels);
  const sites = new SitesService(database, config.sites, preview, config.files.maxImagePixels);
  // A site just published gets its pictures' copies made at once, before visitors ask.
  const publishing = new PublishingService(database, config, previewLinks, content, (deployId) => {
    sites.warmImages(deployId).catch((err: unknown) => logger?.warn({ err }, 'making image copies failed'));
  });
  const deployments = new DeploymentsService(database, config);
  const billing = new BillingService(
    { database, processor, secrets, secretsMissing: SECRETS_MISSING, publicUrl, mailer, logger },
    clients,
    {
      publish: (principal, projectId) => publishing.publish(principal, projectId),
      unpublish: (principal, projectId) => publishing.unpublish(principal, projectId),
      promote: (principal, ref) => deployments.promote(principal, ref),
    },
  );
  return {
    billing,
    orgs,
    clients,
    accounts,
    members: new MembersService(database, accounts, mailer, publicUrl),
    portal: new PortalService(database, accounts, clients, mailer, publicUrl),
    plans: new PlansService(database, (orgId, planId) => billing.planChanged(orgId, planId)),
    templates,
    projects,
    files: new FilesService(database, content),
    publishing,
    deployments,
    versions: new VersionsService(database, previewLinks, content),
    sites,
    domains: new DomainsService(database, config),
    siteSettings: new SiteSettingsService(database),
    forms: new FormsService(database, formLimiter, publicUrl),
    analytics: new AnalyticsService(database),
    capture: new PageViewCapture(
      {
        database: {
          dataDir: config.dataDir,
          databaseUrl: config.databaseUrl,
          sqliteSynchronous: config.sqliteSynchronous,
        },
        flushMs: config.sites.analyticsFlushMs,
        rawRetentionDays: config.sites.analyticsRawRetentionDays,
      },
      logger,
    ),
    generations,
    aiModels,
    oauth: new OAuthService(
      database,
      new URL(publicUrl).origin,
      [`${new URL(publicUrl).origin}/api/mcp`],
      config.webhooksAllowPrivate,
    ),
    embed: new EmbedService(database, clients, { publicUrl }),
    buildLinks: new BuildLinksService(database, {
      publicUrl,
      accounts,
      clients,
      projects,
      generations,
      templates,
    }),
    webhooks: new WebhooksService(database, config),
    deliveries: new DeliveriesService(database, config),
    backups: new BackupsService(
      database,
      {
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
        secretsKey: secrets?.fingerprint() ?? null,
        version,
      },
      config.backup,
      logger,
    ),
  };
}
