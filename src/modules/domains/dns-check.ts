// Checking a custom domain's DNS: the TXT record proves ownership, and a CNAME to the sites host
// (or its flattened form, the sites host's own addresses; or, for an apex when SITES_IPV4 is set,
// an A record to it) routes visitors here. Look-ups go through the
// resolvers of DNS_SERVERS when set.
import { Resolver } from 'node:dns/promises';
import type { SitesSettings } from '../settings.ts';

import type { DnsRecord } from './schema.ts';

export type { DnsRecord } from './schema.ts';

export const TXT_PREFIX = '_sitewright';

/** The records the owner must create for `domain`. */
export function requiredRecords(
  sites: SitesSettings,
  domain: string,
  subdomain: string | null,
  token: string,
): Omit<DnsRecord, 'status'>[] {
  const target = sites.domain.replace(/:\d+$/, '');
  const routing: Omit<DnsRecord, 'status'> =
    subdomain === null && sites.ipv4
      ? { type: 'A', name: domain, value: sites.ipv4 }
      : { type: 'CNAME', name: domain, value: target };
  return [routing, { type: 'TXT', name: `${TXT_PREFIX}.${domain}`, value: `sitewright-verify=${token}` }];
}

const recordKey = (r: Omit<DnsRecord, 'status'>) => `${r.type} ${r.name}`;

export class DnsChecker {
  private readonly resolver: Resolver;

  constructor(servers: string[], timeoutMs = 3_000) {
    this.resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
    if (servers.length > 0) this.resolver.setServers(servers);
  }

  /** Checks every record; returns each one's status keyed by "TYPE name". */
  async check(records: Omit<DnsRecord, 'status'>[]): Promise<Record<string, DnsRecord['status']>> {
    const results: Record<string, DnsRecord['status']> = {};
    for (const record of records) results[recordKey(record)] = await this.checkOne(record);
    return results;
  }

  /**
   * No CNAME: an apex cannot have one, and DNS hosts publish an ALIAS or a "flattened" CNAME as
   * the target's own addresses. The record counts when the name resolves to addresses that are
   * all the target's.
   */
  private async flattened(name: string, target: string): Promise<DnsRecord['status']> {
    const none = (): string[] => [];
    const [mine, theirs] = await Promise.all([
      this.resolver.resolve4(name).catch(none),
      this.resolver.resolve4(target).catch(none),
    ]);
    if (mine.length === 0) return 'missing';
    return theirs.length > 0 && mine.every((ip) => theirs.includes(ip)) ? 'ok' : 'wrong';
  }

  private async checkOne(record: Omit<DnsRecord, 'status'>): Promise<DnsRecord['status']> {
    try {
      const want = record.value.toLowerCase().replace(/\.$/, '');
      let found: string[];
      if (record.type === 'TXT')
        found = (await this.resolver.resolveTxt(record.name)).map((chunks) => chunks.join(''));
      else if (record.type === 'A') found = await this.resolver.resolve4(record.name);
      else {
        found = await this.resolver.resolveCname(record.name).catch((): string[] => []);
        if (found.length === 0) return this.flattened(record.name, want);
      }
      if (found.length === 0) return 'missing';
      return found.some((v) => v.toLowerCase().replace(/\.$/, '') === want) ? 'ok' : 'wrong';
    } catch {
      // NXDOMAIN, no data, timeouts: the record is not there (yet).
      return 'missing';
    }
  }
}

export function withStatus(
  records: Omit<DnsRecord, 'status'>[],
  results: Record<string, DnsRecord['status']> | null,
): DnsRecord[] {
  return records.map((r) => ({ ...r, status: results?.[recordKey(r)] ?? 'unchecked' }));
}
