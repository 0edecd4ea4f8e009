// Publishing: every publish is an immutable deployment (a frozen copy of the files it served);
// the project points at its current one. The project.published event is written in the same
// transaction, so a publish is never live without its event, nor the event sent for nothing.
import type { FileLimits, SitesSettings } from '../settings.ts';
import type { Database } from '../../db/index.ts';
import { signalWork } from '../../jobs/signal.ts';
import { forPeople, invalid } from '../common/errors.ts';
import { checkFileSet, checkImages, type SiteFile } from '../files/rules.ts';
import { lockProject, toProject } from '../projects/repo.ts';
import { requireAbility, requirePermission, requireVisibleProject } from '../access/access.ts';
import { visibleProject } from '../access/projects.ts';
import type { Principal } from '../access/principal.ts';
import type { ContentWriter } from '../content/writer.ts';
import type { Project } from '../projects/schema.ts';
import type { PreviewLinks } from './preview-links.ts';
import * as repo from './repo.ts';
import type { Preview, Published } from './schema.ts';
import { isPlatformFile } from './platform-files.ts';
import { goLive } from './go-live.ts';
import { siteNotes } from './search/site-notes.ts';
import { searchReadyFiles, searchReadyUpload } from './search/publish-files.ts';
import { decorate, isPage, leftOutOf, utf8, type LeftOut } from './search/site-files.ts';
import { sharingTags } from './search/page-head.ts';
import { readSiteSettings } from '../site-settings/repo.ts';
import { siteUrl } from './urls.ts';
import { readProjectFiles } from '../files/repo.ts';
import { latestVersion } from '../versions/repo.ts';
import { newId } from '../../lib/ids.ts';
import { publishedPaths, storeArchive, type ArchiveFile } from './archive-upload.ts';
import { deployUpload, discardUpload, discardUploadsBefore } from './uploads-repo.ts';

/** A shared link as an app shows it: the page's address, names and the project's picture path. */
export interface SharedLink {
  url: string;
  site_name: string | null;
  title: string | null;
  description: string | null;
  /** Path of the project's file shown with the link. */
  image: string | null;
}

/** Files an interrupted upload left behind are removed by the next upload after this long. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

export class PublishingService {
  constructor(
    private readonly database: Database,
    private readonly config: { files: FileLimits; sites: SitesSettings },
    private readonly previewLinks: PreviewLinks,
    private readonly writer: ContentWriter,
    /** Told of each deployment that goes live by a publish (after its commit). */
    private readonly onLive: (deploymentId: string) => void = () => {},
  ) {}

  /** Publishes `builtFiles` when given, else the project's current files. */
  async publish(
    principal: Principal,
    projectId: string,
    builtFiles?: Record<string, string>,
  ): Promise<Published> {
    const { orgId } = principal;
    const published = await this.writer.change(principal, projectId, {
      ability: 'publish',
      write: async (working): Promise<SiteFile[]> =>
        builtFiles
          ? Object.entries(builtFiles).map(([path, content]) => ({ path, content }))
          : await working.all(),
      // Published from the project's files: the deployment names their version (recorded now if
      // the files somehow differ from the latest one). builtFiles are a build's output, no version.
      version: () => (builtFiles ? null : { source: 'files_api' }),
      finish: async (trx, files, version, current): Promise<Published> => {
        const versionId = builtFiles
          ? null
          : ((version ?? (await latestVersion(trx, orgId, projectId)))?.id ?? null);
        if (files.length === 0) {
          const error = invalid(
            'Nothing to publish: the project has no files (send builtFiles, or write files first)',
          );
          throw forPeople(
            error,
            'Nothing to publish yet: the website has no pages. Describe it in the chat first, or write its files in the Code tab.',
          );
        }
        const checked = checkFileSet(files, this.config.files, 'builtFiles path');
        // The project's own files were checked as they were written; a build's are checked now.
        if (builtFiles) await checkImages(checked, this.config.files);
        const notes = siteNotes(files);
        for (const [path, content] of checked) if (isPlatformFile(path, content)) checked.delete(path);
        if (!checked.has('index.html')) throw invalid('Nothing to publish: the files have no index.html');
        const deployed = await searchReadyFiles(trx, this.config.sites, current, checked, notes, {
          pagesFrom: builtFiles ? 'now' : 'project',
        });
        const deployId = await repo.insertDeployment(trx, {
          orgId,
          projectId,
          versionId,
          siteUrl: siteUrl(this.config.sites, current),
          files: deployed,
        });
        return goLive(trx, this.config.sites, current, deployId);
      },
    });
    signalWork('sites');
    this.onLive(published.deployId);
    return published;
  }

  /**
   * Publishes the files of an archive as they are read (a build's output, no version, like
   * builtFiles): each is stored as it arrives, then the deployment is made from them in one
   * transaction. A refusal at any point publishes nothing and keeps nothing.
   */
  async publishArchive(
    principal: Principal,
    projectId: string,
    archive: AsyncIterable<ArchiveFile>,
  ): Promise<Published> {
    const { orgId } = principal;
    requirePermission(principal, 'write');
    requireAbility(principal, 'publish');
    // A project the caller cannot see gets its 404 before anything is stored.
    await visibleProject(this.database.db, principal, projectId);
    await discardUploadsBefore(this.database, new Date(Date.now() - STALE_UPLOAD_MS));
    const upload = { id: newId(), orgId };
    try {
      const files = await storeArchive(this.database, upload, archive, this.config.files);
      const published = await this.writer.change(principal, projectId, {
        ability: 'publish',
        write: async () => files,
        version: () => null,
        finish: async (trx, stored, _version, current): Promise<Published> => {
          if (stored.length === 0) throw invalid('Nothing to publish: the archive holds no files');
          const pathOf = publishedPaths(stored);
          const published = stored.map((file) => ({ ...file, path: pathOf(file.path), stored: file.path }));
          if (!published.some((file) => file.path === 'index.html'))
            throw invalid(
              'Nothing to publish: the archive has no index.html (at its root or in its one folder)',
            );
          const deployed = await searchReadyUpload(trx, this.config.sites, current, upload, published);
          const deployId = await repo.insertDeploymentRow(trx, {
            orgId,
            projectId,
            versionId: null,
            siteUrl: siteUrl(this.config.sites, current),
            fileCount: deployed.length,
            totalBytes: deployed.reduce((sum, file) => sum + file.size, 0),
          });
          await deployUpload(trx, upload, deployId, deployed);
          return goLive(trx, this.config.sites, current, deployId);
        },
      });
      signalWork('sites');
      this.onLive(published.deployId);
      return published;
    } finally {
      await discardUpload(this.database, upload.id);
    }
  }

  /** Takes the site offline; `last_published_at` keeps the time of the last publish. */
  async unpublish(principal: Principal, projectId: string): Promise<Project> {
    requirePermission(principal, 'write');
    requireAbility(principal, 'publish');
    const { orgId } = principal;
    const project = await this.database.transaction(async (trx) => {
      const current = await lockProject(trx, orgId, projectId);
      requireVisibleProject(principal, current);
      if (current.current_deployment_id === null && current.published_url === null) return toProject(current);
      const changes = {
        current_deployment_id: null,
        published_url: null,
        updated_at: new Date().toISOString(),
      };
      await repo.setLive(trx, orgId, projectId, changes);
      return toProject({ ...current, ...changes });
    });
    signalWork('sites');
    return project;
  }

  /**
   * What publishing the project's current files would leave out: each placeholder still to fill
   * in (by page), and the pages that would go whole (nothing real left in them).
   */
  async leftOut(principal: Principal, projectId: string): Promise<LeftOut> {
    await visibleProject(this.database.db, principal, projectId);
    const pages = new Map<string, string>();
    for (const file of await readProjectFiles(this.database.db, principal.orgId, projectId)) {
      if (!isPage(file.path) || isPlatformFile(file.path, file.content)) continue;
      const text = typeof file.content === 'string' ? file.content : utf8(file.content);
      if (text !== null) pages.set(file.path, text);
    }
    const { placeholders, pages: gone } = await leftOutOf(pages);
    return { placeholders, pages: gone };
  }

  /**
   * How a link to the site looks when shared, from its home page as the next publish writes it:
   * what an app reads from its Open Graph tags. Null when the project has no home page yet.
   */
  async sharedLink(principal: Principal, projectId: string): Promise<SharedLink | null> {
    const project = await visibleProject(this.database.db, principal, projectId);
    const files = await readProjectFiles(this.database.db, principal.orgId, projectId);
    const home = files.find((file) => file.path === 'index.html');
    if (!home) return null;
    const settings = await readSiteSettings(this.database.db, principal.orgId, projectId);
    const paths = new Set(files.map((file) => file.path));
    const site = {
      baseUrl: siteUrl(this.config.sites, project),
      settings,
      notes: siteNotes(files),
      hasFile: (path: string) => paths.has(path),
    };
    const html = decorate(site, 'index.html', String(home.content)).html;
    const tags = sharingTags(html);
    return {
      url: site.baseUrl,
      site_name: tags['og:site_name'] ?? null,
      title: tags['og:title'] ?? null,
      description: tags['og:description'] ?? null,
      image: settings.social_image && paths.has(settings.social_image) ? settings.social_image : null,
    };
  }

  /** A fresh signed link to the project's current files, valid for PREVIEW_TTL. */
  async previewLink(principal: Principal, projectId: string): Promise<Preview> {
    const row = await visibleProject(this.database.db, principal, projectId);
    const link = await this.previewLinks.current(row.id);
    return {
      published_url: row.published_url,
      has_published: row.current_deployment_id !== null,
      embed_preview_path: `/embed/projects/${row.id}/preview`,
      preview_url: link.url,
      preview_expires_at: link.expiresAt,
    };
  }
}
