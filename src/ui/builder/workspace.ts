// Everything the builder page shows, read through the same services as the REST API: the chat
// (generations, the running one, the client's daily AI allowance, the models), the preview link,
// the files and the open file, the versions, the deployments and the domains, and what the
// client's plan allows.
import type { Services } from '../../modules/index.ts';
import type { BuilderScope } from './scope.ts';
import { unlessMissing } from './scope.ts';
import { isInternalPath } from '../../modules/files/paths.ts';
import { placeholdersOf } from './placeholders.ts';
import type { Principal } from '../../modules/access/principal.ts';

export const TABS = ['chat', 'code', 'versions', 'publish', 'settings'] as const;
export type Tab = (typeof TABS)[number];

const TEXT_TYPES = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;

export interface WorkspaceQuery {
  tab?: string;
  file?: string;
  version?: string;
  /** How the one-time notice is shown (builder/action-answer.ts). */
  tone?: string;
}

export async function loadWorkspace(services: Services, scope: BuilderScope, query: WorkspaceQuery) {
  const { orgId, principal: asking, project } = scope;
  const id = project.id;
  const [
    generations,
    allowance,
    preview,
    files,
    versions,
    deployments,
    domains,
    plan,
    placeholders,
    site,
    shared,
    formNames,
  ] = await Promise.all([
    services.generations.list(asking, id, 30, 0),
    services.generations.dailyAllowance(asking, id),
    services.publishing.previewLink(asking, id),
    services.files.list(asking, id).then((all) => all.filter((f) => !isInternalPath(f.path))),
    services.versions.list(asking, id, 50, 0),
    services.deployments.list(asking, id, 20, 0),
    services.domains.list(asking, id),
    clientPlan(services, asking, project.org_client_id),
    placeholdersOf(services, asking, id),
    services.siteSettings.get(asking, id),
    services.publishing.sharedLink(asking, id),
    services.siteSettings.formNames(asking, id),
  ]);
  const running =
    generations.generations.find((g) => g.status === 'queued' || g.status === 'running') ?? null;
  const tab: Tab = (TABS as readonly string[]).includes(query.tab ?? '') ? (query.tab as Tab) : 'chat';
  const pages = files.filter((f) => /\.html?$/i.test(f.path) && !f.path.startsWith('.')).map((f) => f.path);
  const openPath = files.some((f) => f.path === query.file)
    ? query.file!
    : (pages.find((p) => p === 'index.html') ?? files[0]?.path);
  const openMeta = files.find((f) => f.path === openPath);
  const open =
    openMeta && TEXT_TYPES.test(openMeta.content_type)
      ? await unlessMissing(services.files.get(asking, id, openMeta.path))
      : undefined;
  const shownVersion = query.version
    ? await unlessMissing(services.versions.get(asking, { projectId: id, versionId: query.version }))
    : undefined;
  return {
    tab,
    tone: query.tone === 'warning' ? 'warning' : 'ok',
    history: [...generations.generations].reverse(),
    running,
    allowance,
    models: (await services.generations.modelsFor(orgId)).models,
    previewUrl: preview.preview_url,
    shownVersion: shownVersion ?? null,
    files,
    pages,
    openPath: openPath ?? null,
    open:
      open && open.encoding === 'utf8'
        ? { path: open.path, content: open.content, type: open.content_type }
        : null,
    versions: versions.versions,
    versionTotal: versions.total,
    deployments: deployments.deployments,
    domains,
    canExport: plan?.can_export_code ?? true,
    canUseDomains: plan?.can_use_custom_domain ?? true,
    planName: plan?.name ?? null,
    placeholders,
    site,
    shared,
    /** The site's forms, each with its own rules (Settings tab). */
    formNames,
    /** The project's files a setting may name: pictures for shared links, icons. */
    images: files.filter((f) => /\.(?:png|jpe?g|webp|gif)$/i.test(f.path)).map((f) => f.path),
    icons: files.filter((f) => /\.(?:svg|png|ico)$/i.test(f.path)).map((f) => f.path),
    activeDomain: domains.find((d) => d.status === 'active')?.domain ?? null,
  };
}

/** The plan of the project's client, when it has one (its flags decide export and domains). */
async function clientPlan(services: Services, asking: Principal, clientId: string | null) {
  if (!clientId) return undefined;
  const client = await unlessMissing(services.clients.get(asking, clientId));
  return client?.plan_id ? unlessMissing(services.plans.get(asking, client.plan_id)) : undefined;
}
