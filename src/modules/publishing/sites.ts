// What published sites and preview links serve, for the site edge: the site a host names, and the
// files of a deployment (immutable) or of a project's current state (previews). Reads only.
import type { SitesSettings } from '../settings.ts';
import type { Database } from '../../db/index.ts';
import { isInternalPath } from '../files/paths.ts';
import type { PreviewSigner } from './preview-signer.ts';
import { versionSubject } from './preview-links.ts';
import * as repo from './repo.ts';
import { isPlatformFile } from './platform-files.ts';
import { GENERATOR_NOTES_FILE } from '../files/paths.ts';
import { sha256 } from '../files/content.ts';
import { readSiteSettings } from '../site-settings/repo.ts';
import { decorate, isPage, leftOutOf, utf8 } from './search/site-files.ts';
import { siteNotes } from './search/site-notes.ts';
import { siteUrl } from './urls.ts';
import { ImageCopies, type CopyPlan } from '../images/copies.ts';
import { pictureRefs, responsiveImages } from '../images/responsive.ts';

/** The site a host names: its project, and the deployment it serves (null: not published). */
export interface SiteTarget {
  orgId: string;
  projectId: string;
  deploymentId: string | null;
  /**
   * Named by its subdomain while it has a verified custom domain: the site's address is that
   * domain. `redirect`: the owner wants the subdomain to answer 301 there (site settings).
   */
  movedTo?: { domain: string; redirect: boolean };
}

export interface ServedFile {
  content: Buffer;
  contentType: string;
  etag: string;
  /** The stored blob's sha256 (a page with what publishing writes into it has none). */
  sha256?: string;
  /** Set on a copy of an image chosen by the request's `Accept`. */
  vary?: string;
}

const toTarget = (row: repo.SiteRow | undefined): SiteTarget | undefined =>
  row && { orgId: row.org_id, projectId: row.id, deploymentId: row.current_deployment_id };

/** A stored file as served; null when there is none, or it is one a site never serves. */
function toFile(path: string, row: repo.ServedFileRow | undefined): ServedFile | null {
  if (!row) return null;
  const content = Buffer.from(row.content);
  return isPlatformFile(path, content)
    ? null
    : {
        content,
        contentType: row.content_type,
        etag: `"${row.sha256.slice(0, 32)}"`,
        sha256: row.sha256,
      };
}

export class SitesService {
  private readonly reads: ReturnType<typeof repo.prepareSiteReads>;
  private readonly suffix: string;
  private readonly copies: ImageCopies;

  constructor(
    private readonly database: Database,
    private readonly sites: SitesSettings,
    private readonly preview: PreviewSigner,
    maxImagePixels: number,
  ) {
    this.reads = repo.prepareSiteReads(database);
    this.copies = new ImageCopies(database, maxImagePixels);
    this.suffix = `.${sites.domain.replace(/:\d+$/, '')}`;
  }

  async bySubdomain(label: string): Promise<SiteTarget | undefined> {
    const row = await this.reads.bySubdomain.first({ label });
    const target = toTarget(row);
    if (!target || !row?.custom_domain || row.custom_domain_status !== 'active') return target;
    // Pages published before the domain was verified still name the subdomain as their address:
    // until the next publish, the subdomain stays the site's address (indexed, not redirected).
    if (row.site_url !== `https://${row.custom_domain}/`) return target;
    const settings = row.settings ? (JSON.parse(row.settings) as { redirect_subdomain?: boolean }) : {};
    return {
      ...target,
      movedTo: { domain: row.custom_domain, redirect: settings.redirect_subdomain === true },
    };
  }

  /** The site of an active custom domain. */
  async byDomain(domain: string): Promise<SiteTarget | undefined> {
    return toTarget(await this.reads.byActiveDomain.first({ domain }));
  }

  async deploymentFile(deploymentId: string, path: string): Promise<ServedFile | null> {
    if (isInternalPath(path)) return null; // not even looked up
    return toFile(path, await this.reads.deploymentFile.first({ deploymentId, path }));
  }

  /** A file of the project's current (unpublished) files, for previews. */
  async currentFile(projectId: string, path: string): Promise<ServedFile | null> {
    if (isInternalPath(path)) return null;
    return toFile(path, await this.reads.currentFile.first({ projectId, path }));
  }

  /**
   * A page of the project's current files with what publishing writes into it from the site
   * settings as they are now (search/site-files.ts); `live`: also without the placeholders
   * publishing leaves out, exactly as it will go live. Other files as they are.
   */
  async asPublished(
    projectId: string,
    path: string,
    file: ServedFile,
    live = false,
  ): Promise<ServedFile | null> {
    const source = file.contentType.startsWith('text/html') ? utf8(file.content) : null;
    if (source === null) return file;
    let html = source;
    if (live) {
      const pages = new Map<string, string>();
      for (const [page, content] of await repo.currentPageFiles(this.database.db, projectId)) {
        const text = isPage(page) && !isPlatformFile(page, content) ? utf8(content) : null;
        if (text !== null) pages.set(page, text);
      }
      const plan = await leftOutOf(pages);
      // A page publishing would leave out is not there live.
      if (plan.pages.includes(path)) return null;
      html = plan.page(path, source);
    }
    const project = await repo.siteAddress(this.database.db, projectId);
    if (!project) return file;
    const settings = await readSiteSettings(this.database.db, project.org_id, projectId);
    const notes = await this.reads.currentFile.first({ projectId, path: GENERATOR_NOTES_FILE });
    const present = new Set<string>();
    for (const named of [settings.favicon, settings.social_image])
      if (named && (await this.reads.currentFileSha.first({ projectId, path: named }))) present.add(named);
    const site = {
      baseUrl: siteUrl(this.sites, project),
      settings,
      notes: siteNotes(notes ? [{ path: GENERATOR_NOTES_FILE, content: Buffer.from(notes.content) }] : []),
      hasFile: (named: string) => present.has(named),
    };
    let decorated = decorate(site, path, html).html;
    if (site.notes.generated) {
      // Each image's size from its header, read once per image (by its sha256), not per page.
      const sizeOf = async (named: string) => {
        if (isInternalPath(named)) return undefined;
        const sha = (await this.reads.currentFileSha.first({ projectId, path: named }))?.sha256;
        const read = async () => {
          const row = await this.reads.currentFile.first({ projectId, path: named });
          return row && Buffer.from(row.content);
        };
        return sha ? this.copies.sizeOf(sha, read) : undefined;
      };
      decorated = await responsiveImages(decorated, path, sizeOf);
    }
    const content = Buffer.from(decorated);
    // No sha256: these bytes are no stored blob's.
    return { contentType: file.contentType, content, etag: `"${sha256(content).slice(0, 32)}"` };
  }

  /**
   * Which copy of the image `file` at `path` a request for `width` (none: its own) with `accept`
   * gets (images/copies.ts); undefined: the file is sent as it is.
   */
  imageCopyPlan(
    path: string,
    file: ServedFile,
    width: number | undefined,
    accept: string | undefined,
  ): Promise<CopyPlan | undefined> {
    if (!file.sha256) return Promise.resolve(undefined);
    return this.copies.plan({ path, content: file.content, sha256: file.sha256 }, width, accept);
  }

  /**
   * The copy `plan` names, as served; undefined when it cannot be made (the file is sent as it
   * is); `busy` when too many visitors wait for copies already (images/copies.ts).
   */
  async imageCopy(path: string, file: ServedFile, plan: CopyPlan): Promise<ServedFile | 'busy' | undefined> {
    const source = { path, content: file.content, sha256: file.sha256! };
    const copy = await this.copies.copy(source, plan);
    return copy === 'busy' || copy === undefined ? copy : { ...copy, vary: 'Accept' };
  }

  /**
   * Makes, in the background, the copies (AVIF, what current browsers take) that the pages of a
   * deployment just published ask for; a visitor's request is never kept waiting by it.
   */
  async warmImages(deploymentId: string): Promise<number> {
    const wanted: { path: string; width?: number }[] = [];
    for (const path of await repo.deploymentPaths(this.database.db, deploymentId)) {
      if (!isPage(path)) continue;
      const page = await this.deploymentFile(deploymentId, path);
      const html = page && utf8(page.content);
      if (html) wanted.push(...pictureRefs(html, path));
    }
    return this.copies.warm(wanted, async (path) => {
      const file = await this.deploymentFile(deploymentId, path);
      return file?.sha256 ? { path, content: file.content, sha256: file.sha256 } : null;
    });
  }

  /** A file of one version of a project, for that version's preview link. */
  async versionFile(versionId: string, path: string): Promise<ServedFile | null> {
    if (isInternalPath(path)) return null;
    return toFile(path, await this.reads.versionFile.first({ versionId, path }));
  }

  /** True when a preview link is this service's for the project and has not expired. */
  verifyPreview(projectId: string, expiresAt: number, signature: string): Promise<boolean> {
    return this.preview.verify(projectId, expiresAt, signature);
  }

  /** The same for a link to one version. */
  verifyVersionPreview(versionId: string, expiresAt: number, signature: string): Promise<boolean> {
    return this.preview.verify(versionSubject(versionId), expiresAt, signature);
  }

  /**
   * Whether a certificate may be issued for a host name: only active custom domains and the
   * subdomains of published sites qualify, so nobody can make the front proxy request
   * certificates for names that are not ours.
   */
  async allowsCertificate(rawDomain: string): Promise<boolean> {
    const domain = rawDomain.toLowerCase().replace(/\.$/, '');
    if (domain.endsWith(this.suffix))
      return repo.isPublishedSubdomain(this.database.db, domain.slice(0, -this.suffix.length));
    return domain !== '' && repo.isActiveDomain(this.database.db, domain);
  }
}
