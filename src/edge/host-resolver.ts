// Which published site a request's Host names: `{subdomain}.{SITES_DOMAIN}` or an active custom
// domain, mapped to the project's current deployment.
import type { SitesSettings } from '../config.ts';
import type { SitesService, SiteTarget } from '../modules/publishing/sites.ts';

export type { SiteTarget } from '../modules/publishing/sites.ts';

export class HostResolver {
  private readonly suffix: string;
  private readonly withPort: boolean;

  /** The API's own host (from PUBLIC_URL), normalised like a request's: never a site. */
  private readonly apiHost: string;

  constructor(
    private readonly sitesService: SitesService,
    sites: SitesSettings,
    apiHost: string,
  ) {
    this.suffix = `.${sites.domain}`;
    this.withPort = sites.domain.includes(':');
    // Compared with normalised Host headers: without this, a PUBLIC_URL with a port never matched.
    this.apiHost = this.normalise(apiHost);
  }

  /** The normalised host of a Host header: lower case, no trailing dot, no port unless SITES_DOMAIN has one. */
  normalise(hostHeader: string | undefined): string {
    let host = (hostHeader ?? '').toLowerCase().replace(/\.(?=:|$)/, '');
    if (!this.withPort) host = host.replace(/:\d+$/, '');
    return host;
  }

  /** The subdomain label when `host` is one level under SITES_DOMAIN. */
  subdomainOf(host: string): string | undefined {
    if (!host.endsWith(this.suffix)) return undefined;
    const label = host.slice(0, -this.suffix.length);
    return /^[a-z0-9-]{1,63}$/.test(label) ? label : undefined;
  }

  /** Whether the host could name a site at all (cheap, no database): the API's own host cannot. */
  mayBeSite(host: string): boolean {
    if (host === this.apiHost) return false;
    if (this.subdomainOf(host) !== undefined) return true;
    return host.includes('.') && !host.includes(':') && !/^[\d.]+$/.test(host);
  }

  /** The site for a host, null when the host is a site host with nothing published, undefined when it is no site host. */
  async resolve(host: string): Promise<SiteTarget | null | undefined> {
    if (!this.mayBeSite(host)) return undefined;
    const label = this.subdomainOf(host);
    const target = label !== undefined ? await this.sitesService.bySubdomain(label) : await this.sitesService.byDomain(host);
    // An unknown custom host is no site host: it falls through to the API (and its 404s).
    return target ?? (label !== undefined ? null : undefined);
  }
}
