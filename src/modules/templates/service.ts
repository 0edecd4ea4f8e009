// Templates: private to the organization. A template made with `source_project_id` keeps a
// snapshot of that project's files taken in the same transaction; later edits on either side never
// reach the other, and the project may later be deleted (source_project_id becomes null).
import type { Updateable } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { TemplatesTable } from '../../db/schema.ts';
import { NotFoundError, notFound } from '../common/errors.ts';
import { mapStreamed, type ListPage, type StreamedList } from '../common/paging.ts';
import { newId } from '../../lib/ids.ts';
import { nowIso } from '../../lib/clock.ts';
import { findProject } from '../projects/repo.ts';
import { snapshotProjectToTemplate } from '../files/repo.ts';
import { sweepBlobs, templateBlobHashes } from '../files/blobs-repo.ts';
import { nonBlank } from '../common/text.ts';
import * as repo from './repo.ts';
import {
  DEFAULT_CATEGORY,
  type CreateTemplateBody,
  type Template,
  type UpdateTemplateBody,
} from './schema.ts';
import { agencyOrg, requirePermission } from '../access/access.ts';
import type { Principal } from '../access/principal.ts';

const REFUSAL = "Templates are the agency's to manage";

export class TemplatesService {
  private readonly listQuery: ReturnType<typeof repo.templateList>;

  constructor(private readonly database: Database) {
    this.listQuery = repo.templateList(database);
  }

  private get db() {
    return this.database.db;
  }

  /** The templates a principal may start from: all of them, or the public ones for a client's own account. */
  async list(principal: Principal, limit: number, offset: number): Promise<ListPage<Template>> {
    if (principal.clientId !== undefined) return this.listPublic(principal, limit, offset);
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    const { rows, total } = await this.listQuery.page(orgId, limit, offset);
    return { records: rows.map(repo.toTemplate), total };
  }

  /** The public templates only (a client's own account sees no others), newest first. */
  async listPublic(principal: Principal, limit: number, offset: number): Promise<ListPage<Template>> {
    requirePermission(principal, 'read');
    const { orgId } = principal;
    const { rows, total } = await repo.publicTemplatePage(this.db, orgId, limit, offset);
    return { records: rows.map(repo.toTemplate), total };
  }

  /** Every template from `offset` on, newest first, read a page at a time. */
  streamAll(principal: Principal, offset: number): StreamedList<Template> {
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    return mapStreamed(this.listQuery.streamAll(orgId, offset), repo.toTemplate);
  }

  async get(principal: Principal, id: string): Promise<Template> {
    const orgId = agencyOrg(principal, 'read', REFUSAL);
    const row = await repo.findTemplate(this.db, orgId, id);
    if (!row) throw notFound('Template');
    return repo.toTemplate(row);
  }

  async create(principal: Principal, body: CreateTemplateBody): Promise<Template> {
    const orgId = agencyOrg(principal, 'write', REFUSAL);
    const now = nowIso();
    const row = {
      id: newId(),
      org_id: orgId,
      name: nonBlank('name', body.name),
      description: body.description ?? null,
      category: nonBlank('category', body.category ?? DEFAULT_CATEGORY),
      thumbnail_url: null,
      is_public: body.is_public ?? false,
      is_featured: false,
      source_project_id: body.source_project_id ?? null,
      created_at: now,
      updated_at: now,
    };
    // In one transaction, so the project cannot vanish between the check and the insert.
    return this.database.transaction(async (trx) => {
      if (row.source_project_id && !(await findProject(trx, orgId, row.source_project_id))) {
        throw new NotFoundError(
          `field 'source_project_id': no project ${row.source_project_id} in this organization`,
        );
      }
      await repo.insertTemplate(trx, row);
      if (row.source_project_id) await snapshotProjectToTemplate(trx, orgId, row.source_project_id, row.id);
      return repo.toTemplate(row);
    });
  }

  async update(principal: Principal, id: string, body: UpdateTemplateBody): Promise<Template> {
    const orgId = agencyOrg(principal, 'write', REFUSAL);
    // A bad value is a 400 even for a template that does not exist (400 before 404).
    const name = body.name === undefined ? undefined : nonBlank('name', body.name);
    const category = body.category === undefined ? undefined : nonBlank('category', body.category);
    return this.database.transaction(async (trx) => {
      const current = await repo.findTemplate(trx, orgId, id);
      if (!current) throw notFound('Template');
      const changes: Updateable<TemplatesTable> = {};
      if (name !== undefined) changes.name = name;
      if (body.description !== undefined) changes.description = body.description;
      if (category !== undefined) changes.category = category;
      if (body.thumbnail_url !== undefined) changes.thumbnail_url = body.thumbnail_url;
      if (body.is_public !== undefined) changes.is_public = body.is_public;
      if (body.is_featured !== undefined) changes.is_featured = body.is_featured;
      if (Object.keys(changes).length === 0) return repo.toTemplate(current);
      changes.updated_at = nowIso();
      await repo.updateTemplate(trx, orgId, id, changes);
      return repo.toTemplate((await repo.findTemplate(trx, orgId, id))!);
    });
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const orgId = agencyOrg(principal, 'write', REFUSAL);
    await this.database.transaction(async (trx) => {
      const hashes = await templateBlobHashes(trx, orgId, id);
      if (!(await repo.deleteTemplate(trx, orgId, id))) throw notFound('Template');
      await sweepBlobs(trx, hashes);
    });
  }
}
