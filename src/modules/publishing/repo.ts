// SQL of deployments and of what published sites serve. Deployments are immutable: a publish
// writes a new one and points the project at it. What a site host names is looked up across
// organizations (a host is unique across the service), as is the service's own preview secret.
import { insertInBatches } from '../../db/batches.ts';
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { prepareQuery } from '../../db/prepared.ts';
import { newId } from '../../lib/ids.ts';
import { storeBlobs } from '../files/blobs-repo.ts';
import { contentTypeFor } from '../files/content.ts';

/** A new deployment of `files` (its bytes stored as blobs), naming the version it published if any. */
export async function insertDeployment(
  trx: Executor,
  deployment: {
    orgId: string;
    projectId: string;
    versionId: string | null;
    siteUrl: string;
    files: Map<string, Buffer>;
  },
): Promise<string> {
  const { files } = deployment;
  const total = [...files.values()].reduce((sum, content) => sum + content.length, 0);
  const id = await insertDeploymentRow(trx, { ...deployment, fileCount: files.size, totalBytes: total });
  const hashes = await storeBlobs(trx, files);
  const rows = [...files].map(([path, content]) => ({
    deployment_id: id,
    path,
    content_type: contentTypeFor(path),
    size: content.length,
    sha256: hashes.get(path)!,
  }));
  await insertInBatches(trx, 'deployment_files', rows);
  return id;
}

/** The row of a new deployment, whose files the caller stores; returns its id. */
export async function insertDeploymentRow(
  trx: Executor,
  deployment: {
    orgId: string;
    projectId: string;
    versionId: string | null;
    /** The address its pages were written for. */
    siteUrl: string;
    fileCount: number;
    totalBytes: number;
  },
): Promise<string> {
  const id = newId();
  await trx
    .insertInto('deployments')
    .values({
      id,
      org_id: deployment.orgId,
      project_id: deployment.projectId,
      version_id: deployment.versionId,
      file_count: deployment.fileCount,
      total_bytes: deployment.totalBytes,
      site_url: deployment.siteUrl,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

export async function setLive(
  trx: Executor,
  orgId: string,
  projectId: string,
  changes: {
    current_deployment_id: string | null;
    published_url: string | null;
    last_published_at?: string;
    updated_at: string;
  },
): Promise<void> {
  await trx
    .updateTable('projects')
    .set(changes)
    .where('org_id', '=', orgId)
    .where('id', '=', projectId)
    .execute();
}

/** A site as the edge needs it: the project, and the deployment it serves (null: not published). */
export interface SiteRow {
  org_id: string;
  id: string;
  current_deployment_id: string | null;
}

/** A site found by its subdomain: also its verified custom domain, and its settings document. */
export interface SubdomainSiteRow extends SiteRow {
  custom_domain: string | null;
  custom_domain_status: string | null;
  settings: string | null;
  /** The address the live deployment's pages name. */
  site_url: string | null;
}

export interface ServedFileRow {
  content: Buffer;
  content_type: string;
  sha256: string;
}

/** The hot reads of site serving, prepared once (see db/prepared.ts). */
export function prepareSiteReads(database: Database) {
  const { db } = database;
  return {
    bySubdomain: prepareQuery<{ label: string }, SubdomainSiteRow>(database, (p) =>
      db
        .selectFrom('projects as p')
        .leftJoin('site_settings as s', 's.project_id', 'p.id')
        .leftJoin('deployments as d', 'd.id', 'p.current_deployment_id')
        .select([
          'p.org_id',
          'p.id',
          'p.current_deployment_id',
          'p.custom_domain',
          'p.custom_domain_status',
          's.settings',
          'd.site_url',
        ])
        .where('p.subdomain', '=', p('label')),
    ),
    byActiveDomain: prepareQuery<{ domain: string }, SiteRow>(database, (p) =>
      db
        .selectFrom('project_domains as d')
        .innerJoin('projects as p', 'p.id', 'd.project_id')
        .select(['p.org_id', 'p.id', 'p.current_deployment_id'])
        .where('d.domain', '=', p('domain'))
        .where('d.status', '=', 'active'),
    ),
    deploymentFile: prepareQuery<{ deploymentId: string; path: string }, ServedFileRow>(database, (p) =>
      db
        .selectFrom('deployment_files as f')
        .innerJoin('blobs as b', 'b.sha256', 'f.sha256')
        .select(['b.content', 'f.content_type', 'f.sha256'])
        .where('f.deployment_id', '=', p('deploymentId'))
        .where('f.path', '=', p('path')),
    ),
    currentFile: prepareQuery<{ projectId: string; path: string }, ServedFileRow>(database, (p) =>
      db
        .selectFrom('project_files')
        .select(['content', 'content_type', 'sha256'])
        .where('project_id', '=', p('projectId'))
        .where('path', '=', p('path')),
    ),
    // Whether a project has a file, and which bytes, without reading them.
    currentFileSha: prepareQuery<{ projectId: string; path: string }, { sha256: string }>(database, (p) =>
      db
        .selectFrom('project_files')
        .select('sha256')
        .where('project_id', '=', p('projectId'))
        .where('path', '=', p('path')),
    ),
    versionFile: prepareQuery<{ versionId: string; path: string }, ServedFileRow>(database, (p) =>
      db
        .selectFrom('version_files as f')
        .innerJoin('blobs as b', 'b.sha256', 'f.sha256')
        .select(['b.content', 'f.content_type', 'f.sha256'])
        .where('f.version_id', '=', p('versionId'))
        .where('f.path', '=', p('path')),
    ),
  };
}

/** The paths of a deployment's files. */
export async function deploymentPaths(db: Executor, deploymentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('deployment_files')
    .select('path')
    .where('deployment_id', '=', deploymentId)
    .execute();
  return rows.map((row) => row.path);
}

/** A project's current files that may be pages (`.htm`, `.html`, any case): a preview of the site as it will go live. */
export async function currentPageFiles(db: Executor, projectId: string): Promise<Map<string, Buffer>> {
  const rows = await db
    .selectFrom('project_files')
    .select(['path', 'content'])
    .where('project_id', '=', projectId)
    .where((eb) => eb(eb.fn('lower', ['path']), 'like', '%.htm%'))
    .execute();
  return new Map(rows.map((row) => [row.path, Buffer.from(row.content)]));
}

/** What a site's address is made of, for a preview of its pages as they will go live. */
export function siteAddress(db: Executor, projectId: string) {
  return db
    .selectFrom('projects')
    .select(['org_id', 'subdomain', 'custom_domain', 'custom_domain_status'])
    .where('id', '=', projectId)
    .executeTakeFirst();
}

/** Whether a subdomain label belongs to a published site. */
export async function isPublishedSubdomain(db: Executor, label: string): Promise<boolean> {
  return Boolean(
    await db
      .selectFrom('projects')
      .select('id')
      .where('subdomain', '=', label)
      .where('current_deployment_id', 'is not', null)
      .executeTakeFirst(),
  );
}

export async function isActiveDomain(db: Executor, domain: string): Promise<boolean> {
  return Boolean(
    await db
      .selectFrom('project_domains')
      .select('id')
      .where('domain', '=', domain)
      .where('status', '=', 'active')
      .executeTakeFirst(),
  );
}

/** The service-wide secret `name`: `candidate` when this call creates it, else the one stored first. */
export async function serviceSecret(db: Executor, name: string, candidate: string): Promise<string> {
  await db
    .insertInto('service_secrets')
    .values({ name, value: candidate, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('service_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

export async function listDeployments(
  db: Executor,
  orgId: string,
  projectId: string,
  limit: number,
  offset: number,
) {
  const rows = await db
    .selectFrom('deployments as d')
    .leftJoin('versions as v', 'v.id', 'd.version_id')
    .select([
      'd.id',
      'd.version_id',
      'v.number as version_number',
      'd.file_count',
      'd.total_bytes',
      'd.created_at',
    ])
    .where('d.org_id', '=', orgId)
    .where('d.project_id', '=', projectId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const count = await db
    .selectFrom('deployments')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

export function findDeployment(db: Executor, orgId: string, projectId: string, id: string) {
  return db
    .selectFrom('deployments')
    .select('id')
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}
