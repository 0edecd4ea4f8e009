// Publishing: every publish is an immutable deployment (a frozen copy of the files it served);
// the project points at its current one. The project.published event is written in the same
// transaction, so a publish is never live without its event, nor the event sent for nothing.
import type { Config } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { recordEvent } from '../../events/outbox.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { findProject, toProject } from '../../modules/projects/repo.ts';
import type { Project } from '../../modules/projects/schema.ts';
import { contentTypeFor, sha256 } from '../files/content.ts';
import { checkFileSize, checkProjectTotals, readProjectFiles, validPath } from '../files/service.ts';
import type { SiteFile } from '../generate/provider.ts';
import { siteUrl } from './urls.ts';

export interface Published {
  url: string;
  deployId: string;
  status: 'ready';
  project: Project;
}

export class PublishService {
  constructor(
    private readonly database: Database,
    private readonly config: Config,
  ) {}

  /** Publishes `builtFiles` when given, else the project's current files. */
  async publish(orgId: string, projectId: string, builtFiles?: Record<string, string>): Promise<Published> {
    return this.database.db.transaction().execute(async (trx) => {
      const current = await findProject(trx, orgId, projectId);
      if (!current) throw notFound('Project');
      const files: SiteFile[] = builtFiles
        ? Object.entries(builtFiles).map(([path, content]) => ({ path, content }))
        : await readProjectFiles(trx, orgId, projectId);
      const deployId = await this.insertDeployment(trx, orgId, projectId, files);
      const now = new Date().toISOString();
      const url = siteUrl(this.config.sites, current);
      const changes = { current_deployment_id: deployId, published_url: url, last_published_at: now, updated_at: now };
      await trx.updateTable('projects').set(changes).where('org_id', '=', orgId).where('id', '=', projectId).execute();
      const project = toProject({ ...current, ...changes });
      await recordEvent(trx, { orgId, type: 'project.published', data: { project, deployment_id: deployId } });
      return { url, deployId, status: 'ready', project };
    });
  }

  /** Takes the site offline; `last_published_at` keeps the time of the last publish. */
  async unpublish(orgId: string, projectId: string): Promise<Project> {
    return this.database.db.transaction().execute(async (trx) => {
      const current = await findProject(trx, orgId, projectId);
      if (!current) throw notFound('Project');
      if (current.current_deployment_id === null && current.published_url === null) return toProject(current);
      const changes = { current_deployment_id: null, published_url: null, updated_at: new Date().toISOString() };
      await trx.updateTable('projects').set(changes).where('org_id', '=', orgId).where('id', '=', projectId).execute();
      return toProject({ ...current, ...changes });
    });
  }

  private async insertDeployment(trx: Executor, orgId: string, projectId: string, files: SiteFile[]): Promise<string> {
    if (files.length === 0) throw badRequest('Nothing to publish: the project has no files (send builtFiles, or write files first)');
    const limits = this.config.files;
    const rows = new Map<string, { content: Buffer }>();
    let total = 0;
    for (const file of files) {
      const path = validPath(file.path, 'builtFiles path');
      const content = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
      checkFileSize(path, content.length, limits);
      if (rows.has(path)) throw badRequest(`builtFiles path '${path}' appears twice once normalised`);
      total += content.length;
      rows.set(path, { content });
    }
    if (!rows.has('index.html')) throw badRequest('Nothing to publish: the files have no index.html');
    checkProjectTotals(rows.size, total, limits);
    const id = newId();
    await trx.insertInto('deployments').values({ id, org_id: orgId, project_id: projectId, file_count: rows.size, total_bytes: total, created_at: new Date().toISOString() }).execute();
    const values = [...rows].map(([path, { content }]) => ({ deployment_id: id, path, content, content_type: contentTypeFor(path), size: content.length, sha256: sha256(content) }));
    for (let i = 0; i < values.length; i += 50) await trx.insertInto('deployment_files').values(values.slice(i, i + 50)).execute();
    return id;
  }
}
