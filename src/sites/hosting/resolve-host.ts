// Which published site a request's Host names: `{subdomain}.{SITES_DOMAIN}` or an active custom
// domain, mapped to the project's current deployment. On SQLite answers are remembered while the
// database is unchanged (`Database.dataVersion`), so a publish, an unpublish or a delete is
// seen by the very next request; on PostgreSQL every request asks the database (other instances
// write there).
import type { SitesSettings } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { prepareQuery } from '../../db/prepared.ts';

export interface SiteTarget {
  orgId: string;
  projectId: string;
  /** Null when the project exists but is not published. */
  deploymentId: string | null;
}

type Row = { org_id: string; id: string; current_deployment_id: string | null };
const MAX_ENTRIES = 10_000;
export const MISS = Symbol('not cached');

export class HostResolver {
  private readonly suffix: string;
  private readonly withPort: boolean;
  private readonly bySubdomain;
  private readonly byDomain;
  private readonly version: (() => number) | undefined;
  private readonly cache = new Map<string, { target: SiteTarget | null | undefined; version: number }>();

  /** The API's own host (from PUBLIC_URL), normalised like a request's: never a site. */
  private readonly apiHost: string;

  constructor(database: Database, sites: SitesSettings, apiHost: string) {
    this.suffix = `.${sites.domain}`;
    this.withPort = sites.domain.includes(':');
    // Compared with normalised Host headers: without this, a PUBLIC_URL with a port never matched.
    this.apiHost = this.normalise(apiHost);
    this.version = database.dataVersion;
    this.bySubdomain = prepareQuery<{ label: string }, Row>(database, (p) =>
      database.db.selectFrom('projects').select(['org_id', 'id', 'current_deployment_id']).where('subdomain', '=', p('label')),
    );
    this.byDomain = prepareQuery<{ domain: string }, Row>(database, (p) =>
      database.db
        .selectFrom('project_domains as d')
        .innerJoin('projects as p', 'p.id', 'd.project_id')
        .select(['p.org_id', 'p.id', 'p.current_deployment_id'])
        .where('d.domain', '=', p('domain'))
        .where('d.status', '=', 'active'),
    );
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

  /** The remembered answer for a host while still true, or MISS: the hot path needs no promise. */
  cached(host: string): SiteTarget | null | undefined | typeof MISS {
    const entry = this.cache.get(host);
    return entry && entry.version === this.version?.() ? entry.target : MISS;
  }

  /** The site for a host, null when the host is a site host with nothing published, undefined when it is no site host. */
  async resolve(host: string): Promise<SiteTarget | null | undefined> {
    if (!this.mayBeSite(host)) return undefined;
    const label = this.subdomainOf(host);
    const version = this.version?.();
    const cached = this.cache.get(host);
    if (cached && cached.version === version) return cached.target;
    const row = label !== undefined ? await this.bySubdomain.first({ label }) : await this.byDomain.first({ domain: host });
    const target = row ? { orgId: row.org_id, projectId: row.id, deploymentId: row.current_deployment_id } : null;
    // An unknown custom host is no site host: it falls through to the API (and its 404s).
    const answer = target ?? (label !== undefined ? null : undefined);
    if (version !== undefined) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      this.cache.set(host, { target: answer, version });
    }
    return answer;
  }
}
