// SQL for projects. Every function takes the organization id, except the subdomain lookup:
// subdomains are unique across the whole service, not per organization.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Database } from '../../db/index.ts';
import { bool, num, type Executor } from '../../db/executor.ts';
import { prepareQuery } from '../../db/prepared.ts';
import type { ProjectsTable } from '../../db/schema.ts';
import { toIso } from '../../lib/clock.ts';
import { forWrite } from '../../db/locks.ts';
import { notFound } from '../common/errors.ts';
import type { Project } from './schema.ts';

export type ProjectRow = Selectable<ProjectsTable>;
export type NewProjectRow = Insertable<ProjectsTable>;

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    user_id: row.user_id,
    org_id: row.org_id,
    org_client_id: row.org_client_id,
    name: row.name,
    description: row.description,
    status: row.status as Project['status'],
    template: row.template,
    tags: JSON.parse(row.tags) as string[],
    starred: bool(row.starred),
    is_public: bool(row.is_public),
    subdomain: row.subdomain,
    custom_domain: row.custom_domain,
    custom_domain_status: row.custom_domain_status,
    published_url: row.published_url,
    last_published_at: toIso(row.last_published_at),
    preview_image_url: row.preview_image_url,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    last_opened_at: toIso(row.last_opened_at),
  };
}

export function findProject(db: Executor, orgId: string, id: string): Promise<ProjectRow | undefined> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Project `id` of organization `orgId`, or NotFoundError ("Project not found"): the one place that
 * decides it (with its prepared twin and deleteProject below), so another
 * organization's project is always indistinguishable from a missing one.
 */
export async function requireProject(db: Executor, orgId: string, id: string): Promise<ProjectRow> {
  return found(await projectQuery(db, orgId, id).executeTakeFirst());
}

/**
 * requireProject for a change of the project or its contents: the project stays locked until the
 * transaction ends (db/locks.ts), so concurrent writers queue and the checks made on its files,
 * limits and deployments see no change made meanwhile.
 */
export async function lockProject(trx: Executor, orgId: string, id: string): Promise<ProjectRow> {
  return found(await forWrite(trx, projectQuery(trx, orgId, id)).executeTakeFirst());
}

function projectQuery(db: Executor, orgId: string, id: string) {
  return db.selectFrom('projects').selectAll().where('org_id', '=', orgId).where('id', '=', id);
}

/** requireProject for GET /projects/{id}, the hot read: one prepared statement, no query building per request. */
export function prepareRequireProject(
  database: Database,
): (orgId: string, id: string) => Promise<ProjectRow> {
  const find = prepareQuery<{ orgId: string; id: string }, ProjectRow>(database, (p) =>
    database.db.selectFrom('projects').selectAll().where('org_id', '=', p('orgId')).where('id', '=', p('id')),
  );
  return async (orgId, id) => found(await find.first({ orgId, id }));
}

const projectNotFound = () => notFound('Project');

function found(row: ProjectRow | undefined): ProjectRow {
  if (!row) throw projectNotFound();
  return row;
}

/** Every project counts against the plan's max_sites, archived ones too: they keep their files. */
export async function countClientProjects(db: Executor, orgId: string, clientId: string): Promise<number> {
  const row = await db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', orgId)
    .where('org_client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return num(row.n as number | string);
}

export async function subdomainTaken(db: Executor, subdomain: string): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('subdomain', '=', subdomain)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertProject(db: Executor, row: NewProjectRow): Promise<void> {
  await db.insertInto('projects').values(row).execute();
}

export async function updateProject(
  db: Executor,
  orgId: string,
  id: string,
  changes: Updateable<ProjectsTable>,
): Promise<void> {
  await db.updateTable('projects').set(changes).where('org_id', '=', orgId).where('id', '=', id).execute();
}

/**
 * Deletes project `id` of organization `orgId`, or throws NotFoundError as requireProject does.
 * Page views go with the project (ON DELETE CASCADE); templates keep theirs with source_project_id
 * set to null.
 */
export async function deleteProject(db: Executor, orgId: string, id: string): Promise<void> {
  const result = await db
    .deleteFrom('projects')
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw projectNotFound();
}
