// Which published site a request's Host names: `{subdomain}.{SITES_DOMAIN}` or an active custom
// domain, mapped to the project's current deployment. Answers are remembered briefly, the negative
// ones too: otherwise every API request arriving under another name than PUBLIC_URL's (a load
// balancer's internal host, say) would pay a database query before reaching the API.
import { LRUCache } from 'lru-cache';
import type { SitesSettings } from '../config.ts';
import { onWork } from '../jobs/signal.ts';
import type { SitesService, SiteTarget } from '../modules/publishing/sites.ts';

export type { SiteTarget } from '../modules/publishing/sites.ts';

/**
 * How long a host's answer is kept. This process forgets every answer at once when the core
 * signals that sites changed (publish, unpublish, project delete, domain add/verify/remove), so
 * its own changes show on the very next request; other instances sharing the database see a
 * change within this time.
 */
export const HOST_ANSWER_TTL_MS = 1_000;
/** Hosts come from clients: a bound on how many (and how many bytes of names) are kept. */
const MAX_HOSTS = 10_000;
const MAX_HOST_BYTES = 4 * 1_048_576;

/** The site for a host; null: a site host with nothing published; undefined: no site host. */
export type HostAnswer = SiteTarget | null | undefined;

export class HostResolver {
  private readonly suffix: string;
  private readonly withPort: boolean;
  /** The API's own host (from PUBLIC_URL), normalised like a request's: never a site. */
  private readonly apiHost: string;
  /** Wrapped, because the cache keeps no null or undefined, and those are answers too. */
  private readonly answers = new LRUCache<string, { answer: HostAnswer }>({
    max: MAX_HOSTS,
    maxSize: MAX_HOST_BYTES,
    sizeCalculation: (_value, host) => host.length + 64,
    ttl: HOST_ANSWER_TTL_MS,
  });
  /** Counts the change signals: an answer looked up across one may predate the change, and is not kept. */
  private changes = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly sitesService: SitesService,
    sites: SitesSettings,
    apiHost: string,
  ) {
    this.suffix = `.${sites.domain}`;
    this.withPort = sites.domain.includes(':');
    // Compared with normalised Host headers: without this, a PUBLIC_URL with a port never matched.
    this.apiHost = this.normalise(apiHost);
    this.unsubscribe = onWork('sites', () => {
      this.changes++;
      this.answers.clear();
    });
  }

  /** Stops listening for change signals (the server is closing). */
  close(): void {
    this.unsubscribe();
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

  async resolve(host: string): Promise<HostAnswer> {
    if (!this.mayBeSite(host)) return undefined;
    // A change in this process clears the answers before its API call returns (the 'sites'
    // signal is delivered at once), so the next request never sees the old one.
    const kept = this.answers.get(host);
    if (kept) return kept.answer;
    const changesBefore = this.changes;
    const answer = await this.lookUp(host);
    if (this.changes === changesBefore) this.answers.set(host, { answer });
    return answer;
  }

  private async lookUp(host: string): Promise<HostAnswer> {
    const label = this.subdomainOf(host);
    const target =
      label !== undefined
        ? await this.sitesService.bySubdomain(label)
        : await this.sitesService.byDomain(host);
    // An unknown custom host is no site host: it falls through to the API (and its 404s).
    return target ?? (label !== undefined ? null : undefined);
  }
}
