// What published sites and preview links serve, for the site edge: the site a host names, and the
// files of a deployment (immutable) or of a project's current state (previews). Reads only.
import type { SitesSettings } from '../settings.ts';
import type { Database } from '../../db/index.ts';
import { isInternalPath } from '../files/paths.ts';
import type { PreviewSigner } from './preview-signer.ts';
import { versionSubject } from './preview-links.ts';
import * as repo from './repo.ts';
import { isPlatformFile } from './platform-files.ts';

/** The site a host names: its project, and the deployment it serves (null: not published). */
export interface SiteTarget {
  orgId: string;
  projectId: string;
  deploymentId: string | null;
}

export interface ServedFile {
  content: Buffer;
  contentType: string;
  etag: string;
}

const toTarget = (row: repo.SiteRow | undefined): SiteTarget | undefined =>
  row && { orgId: row.org_id, projectId: row.id, deploymentId: row.current_deployment_id };

/** A stored file as served; null when there is none, or it is one a site never serves. */
function toFile(path: string, row: repo.ServedFileRow | undefined): ServedFile | null {
  if (!row) return null;
  const content = Buffer.from(row.content);
  return isPlatformFile(path, content)
    ? null
    : { content, contentType: row.content_type, etag: `"${row.sha256.slice(0, 32)}"` };
}

export class SitesService {
  private readonly reads: ReturnType<typeof repo.prepareSiteReads>;
  private readonly suffix: string;

  constructor(
    private readonly database: Database,
    sites: SitesSettings,
    private readonly preview: PreviewSigner,
  ) {
    this.reads = repo.prepareSiteReads(database);
    this.suffix = `.${sites.domain.replace(/:\d+$/, '')}`;
  }

  async bySubdomain(label: string): Promise<SiteTarget | undefined> {
    return toTarget(await this.reads.bySubdomain.first({ label }));
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
