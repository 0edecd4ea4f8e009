// Where previews live: their own origin, `preview.{SITES_DOMAIN}` (a name the sites' wildcard DNS
// already covers), never the dashboard's, so that a site's scripts can never act as the signed-in
// person. A link names the project (its current files) or one version (`/v/{versionId}`), with
// an expiry and a signature; anyone holding it may open it until it expires.
import type { SitesSettings } from '../settings.ts';
import type { PreviewSigner } from './preview-signer.ts';

/** The subdomain label of the preview origin; reserved, never a site's. */
export const PREVIEW_LABEL = 'preview';

export function previewOrigin(sites: SitesSettings): string {
  return `${sites.scheme}://${PREVIEW_LABEL}.${sites.domain}`;
}

/** What a version's link signs, kept apart from a project id's so one link never opens the other. */
export const versionSubject = (versionId: string): string => `version:${versionId}`;

export interface PreviewLink {
  url: string;
  expiresAt: string;
}

export class PreviewLinks {
  constructor(
    private readonly signer: PreviewSigner,
    private readonly sites: SitesSettings,
  ) {}

  private expiry(): number {
    return Math.floor((Date.now() + this.sites.previewTtlMs) / 1000);
  }

  /** The project's current (unsaved to any deployment) files. */
  async current(projectId: string): Promise<PreviewLink> {
    const expires = this.expiry();
    const signature = await this.signer.sign(projectId, expires);
    return {
      url: `${previewOrigin(this.sites)}/${projectId}/${expires}/${signature}/`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** One version's files, as they were when it was made. */
  async version(versionId: string): Promise<PreviewLink> {
    const expires = this.expiry();
    const signature = await this.signer.sign(versionSubject(versionId), expires);
    return {
      url: `${previewOrigin(this.sites)}/v/${versionId}/${expires}/${signature}/`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }
}
