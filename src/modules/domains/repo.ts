// SQL for custom domains. Every function takes the organization id, with two exceptions: a domain
// name is unique across the whole service (like a subdomain), and the background check acts on
// rows it is leasing or holds the lease of (by token).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import type { ProjectDomainsTable } from '../../db/schema.ts';
import { leaseDue, type Leased } from '../../jobs/lease.ts';

export type DomainRow = Selectable<ProjectDomainsTable>;

export function listDomains(db: Executor, orgId: string, projectId: string): Promise<DomainRow[]> {
  return db
    .selectFrom('project_domains')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function findDomain(
  db: Executor,
  orgId: string,
  projectId: string,
  id: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('project_domains')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Whether any site, of any organization, has the domain. */
export async function domainTaken(db: Executor, domain: string): Promise<boolean> {
  return (
    (await db.selectFrom('project_domains').select('id').where('domain', '=', domain).executeTakeFirst()) !==
    undefined
  );
}

export async function insertDomain(db: Executor, row: Insertable<ProjectDomainsTable>): Promise<void> {
  await db.insertInto('project_domains').values(row).execute();
}

/** Writes a check's outcome; with `leaseToken` (the background check) only while it holds the lease. */
export async function recordCheck(
  db: Executor,
  orgId: string,
  id: string,
  changes: Updateable<ProjectDomainsTable>,
  leaseToken?: string,
): Promise<void> {
  await db
    .updateTable('project_domains')
    .set(changes)
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .$if(leaseToken !== undefined, (qb) => qb.where('lease_token', '=', leaseToken!))
    .execute();
}

export async function deleteDomain(
  db: Executor,
  orgId: string,
  projectId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('project_domains')
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The project's domains and their status, newest first. */
export function projectDomains(
  db: Executor,
  orgId: string,
  projectId: string,
): Promise<Pick<DomainRow, 'domain' | 'status'>[]> {
  return db
    .selectFrom('project_domains')
    .select(['domain', 'status'])
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .execute();
}

/** What the project's address is made of; it must exist. */
export function projectAddress(db: Executor, orgId: string, projectId: string) {
  return db
    .selectFrom('projects')
    .select(['subdomain', 'current_deployment_id', 'custom_domain', 'custom_domain_status', 'published_url'])
    .where('org_id', '=', orgId)
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
}

/** Leases pending domains whose next check is due; the status stays pending while leased. */
export function leaseDueChecks(database: Database, limit: number, leaseMs: number): Promise<Leased> {
  return leaseDue(database, 'project_domains', {
    limit,
    leaseMs,
    statuses: ['pending'],
    leasedStatus: 'pending',
  });
}

export function findLeasedDomain(db: Executor, id: string, token: string): Promise<DomainRow | undefined> {
  return db
    .selectFrom('project_domains')
    .selectAll()
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .executeTakeFirst();
}
