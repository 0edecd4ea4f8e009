// Where a published site lives: its active custom domain over https, else its subdomain of the
// sites domain.
import type { SitesSettings } from '../settings.ts';

export function siteUrl(
  sites: Pick<SitesSettings, 'domain' | 'scheme'>,
  project: { subdomain: string | null; custom_domain: string | null; custom_domain_status: string | null },
): string {
  if (project.custom_domain && project.custom_domain_status === 'active')
    return `https://${project.custom_domain}/`;
  return `${sites.scheme}://${project.subdomain}.${sites.domain}/`;
}
