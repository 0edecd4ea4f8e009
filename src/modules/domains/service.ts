// Custom domains of projects: added pending, verified by DNS (now on request, or by the
// background check), active once both records are right. The project's custom_domain,
// custom_domain_status and published_url follow its domains.
import { randomBytes } from 'node:crypto';
import type { SitesSettings } from '../settings.ts';
import type { Database } from '../../db/index.ts';
import { bool, type Executor } from '../../db/executor.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { toIso } from '../../lib/clock.ts';
import { ConflictError, notAllowed, notFound } from '../common/errors.ts';
import { findClientPlan } from '../plans/repo.ts';
import { lockProject, updateProject } from '../projects/repo.ts';
import { requireAbility, requirePermission, requireVisibleProject } from '../access/access.ts';
import { visibleProject } from '../access/projects.ts';
import type { Principal } from '../access/principal.ts';

/** One custom domain of one project: named, so that the two ids cannot be swapped. */
export interface DomainRef {
  projectId: string;
  domainId: string;
}
import type { CustomDomain } from './schema.ts';
import { newId } from '../../lib/ids.ts';
import { signalWork } from '../../jobs/signal.ts';
import { siteUrl } from '../publishing/urls.ts';
import { DnsChecker, requiredRecords, withStatus, type DnsRecord } from './dns-check.ts';
import { parseDomainName } from './names.ts';
import * as repo from './repo.ts';

type Row = repo.DomainRow;

export class DomainsService {
  readonly dns: DnsChecker;

  constructor(
    private readonly database: Database,
    private readonly config: { publicUrl: string; sites: SitesSettings },
  ) {
    this.dns = new DnsChecker(config.sites.dnsServers);
  }

  private get db() {
    return this.database.db;
  }

  toDomain(row: Row): CustomDomain {
    const { subdomain } = parseDomainName(row.domain, this.config.sites.domain);
    const records = requiredRecords(this.config.sites, row.domain, subdomain, row.verification_token);
    return {
      id: row.id,
      project_id: row.project_id,
      domain: row.domain,
      subdomain,
      status: row.status,
      dns_records: withStatus(
        records,
        row.check_results ? (JSON.parse(row.check_results) as Record<string, DnsRecord['status']>) : null,
      ),
      // TLS certificates are the front proxy's, issued on demand once the domain is active.
      ssl_status: row.status === 'active' ? 'active' : 'pending',
      verified_at: toIso(row.verified_at),
      created_at: toIso(row.created_at)!,
      updated_at: toIso(row.updated_at)!,
    };
  }

  async list(principal: Principal, projectId: string): Promise<CustomDomain[]> {
    await visibleProject(this.db, principal, projectId);
    const rows = await repo.listDomains(this.db, principal.orgId, projectId);
    return rows.map((r) => this.toDomain(r));
  }

  async add(principal: Principal, projectId: string, rawDomain: string): Promise<CustomDomain> {
    requirePermission(principal, 'write');
    requireAbility(principal, 'domains');
    const { orgId } = principal;
    const { domain } = parseDomainName(
      rawDomain,
      this.config.sites.domain,
      new URL(this.config.publicUrl).hostname,
    );
    try {
      const added = await this.database.transaction(async (trx) => {
        const project = await lockProject(trx, orgId, projectId);
        requireVisibleProject(principal, project);
        await this.checkPlan(trx, orgId, project.org_client_id);
        if (await repo.domainTaken(trx, domain)) throw domainTaken(domain);
        const now = new Date().toISOString();
        const row = {
          id: newId(),
          org_id: orgId,
          project_id: projectId,
          domain,
          status: 'pending' as const,
          verification_token: randomBytes(16).toString('hex'),
          check_results: null,
          verified_at: null,
          last_checked_at: null,
          next_attempt_at: now,
          attempts: 0,
          lease_until: null,
          lease_token: null,
          created_at: now,
          updated_at: now,
        };
        await repo.insertDomain(trx, row);
        await this.syncProject(trx, orgId, projectId);
        return this.toDomain(row);
      });
      signalWork('sites');
      return added;
    } catch (error) {
      // Two requests raced for the same name: the unique index decided.
      if (isUniqueViolation(error)) throw domainTaken(domain);
      throw error;
    }
  }

  /** Checks the DNS now; activates the domain when both records are right. */
  async verify(principal: Principal, ref: DomainRef): Promise<CustomDomain> {
    requirePermission(principal, 'write');
    requireAbility(principal, 'domains');
    const row = await this.find(principal, ref);
    const updated = await this.check(row);
    return this.toDomain(updated);
  }

  /** One DNS check of a domain, recorded; used by the API and the background job. */
  async check(row: Row, leaseToken?: string): Promise<Row> {
    const { subdomain } = parseDomainName(row.domain, this.config.sites.domain);
    const results = await this.dns.check(
      requiredRecords(this.config.sites, row.domain, subdomain, row.verification_token),
    );
    const ok = Object.values(results).every((s) => s === 'ok');
    const now = new Date();
    const giveUp = now.getTime() - Date.parse(toIso(row.created_at)!) > GIVE_UP_AFTER_MS;
    const status: Row['status'] = ok || row.status === 'active' ? 'active' : giveUp ? 'failed' : 'pending';
    const changes = {
      status,
      check_results: JSON.stringify(results),
      verified_at: ok && !row.verified_at ? now.toISOString() : toIso(row.verified_at),
      last_checked_at: now.toISOString(),
      next_attempt_at:
        status === 'pending'
          ? new Date(now.getTime() + this.config.sites.domainCheckIntervalMs).toISOString()
          : null,
      lease_until: null,
      lease_token: null,
      updated_at: now.toISOString(),
    };
    await this.database.transaction(async (trx) => {
      await repo.recordCheck(trx, row.org_id, row.id, changes, leaseToken);
      await this.syncProject(trx, row.org_id, row.project_id);
    });
    signalWork('sites');
    return { ...row, ...changes };
  }

  async remove(principal: Principal, { projectId, domainId }: DomainRef): Promise<void> {
    requirePermission(principal, 'write');
    requireAbility(principal, 'domains');
    const { orgId } = principal;
    await this.database.transaction(async (trx) => {
      requireVisibleProject(principal, await lockProject(trx, orgId, projectId));
      if (!(await repo.deleteDomain(trx, orgId, projectId, domainId))) throw notFound('Domain');
      await this.syncProject(trx, orgId, projectId);
    });
    signalWork('sites');
  }

  private async find(principal: Principal, { projectId, domainId }: DomainRef): Promise<Row> {
    await visibleProject(this.db, principal, projectId);
    const row = await repo.findDomain(this.db, principal.orgId, projectId, domainId);
    if (!row) throw notFound('Domain');
    return row;
  }

  private async checkPlan(db: Executor, orgId: string, clientId: string | null): Promise<void> {
    if (!clientId) return;
    const plan = await findClientPlan(db, orgId, clientId);
    if (plan && !bool(plan.can_use_custom_domain)) {
      throw notAllowed(
        `Custom domains are not included in this client's plan '${plan.name}' (can_use_custom_domain is false)`,
      );
    }
  }

  /**
   * The project shows its newest active domain, else its newest pending one; its published URL
   * moves to the active domain and back to the subdomain when that goes.
   */
  private async syncProject(trx: Executor, orgId: string, projectId: string): Promise<void> {
    const domains = await repo.projectDomains(trx, orgId, projectId);
    const shown = domains.find((d) => d.status === 'active') ?? domains.find((d) => d.status === 'pending');
    const project = await repo.projectAddress(trx, orgId, projectId);
    const custom_domain = shown?.domain ?? null;
    const custom_domain_status = shown?.status ?? null;
    const published_url = project.current_deployment_id
      ? siteUrl(this.config.sites, { subdomain: project.subdomain, custom_domain, custom_domain_status })
      : project.published_url;
    if (
      custom_domain === project.custom_domain &&
      custom_domain_status === project.custom_domain_status &&
      published_url === project.published_url
    )
      return;
    await updateProject(trx, orgId, projectId, {
      custom_domain,
      custom_domain_status,
      published_url,
      updated_at: new Date().toISOString(),
    });
  }
}

/** A domain still not verified this long after it was added is marked failed (verify can still activate it). */
export const GIVE_UP_AFTER_MS = 7 * 86_400_000;

function domainTaken(domain: string): ConflictError {
  return new ConflictError(`field 'domain': ${domain} is already attached to a site`);
}
