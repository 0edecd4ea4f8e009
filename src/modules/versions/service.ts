// A project's versions: listing them, reading any version's files, and restoring one. Versions
// are made where files change (files service, generation worker, project creation from a
// template); a restore checks the version's files out as the working files and records them as a
// new version, so no version is ever lost.
import type { Database } from '../../db/index.ts';
import { notFound } from '../common/errors.ts';
import { validPath } from '../files/rules.ts';
import { visibleProject } from '../access/projects.ts';
import { authorOf, type Principal } from '../access/principal.ts';
import type { ContentWriter } from '../content/writer.ts';
import * as repo from './repo.ts';
import type { PreviewLinks } from '../publishing/preview-links.ts';
import type { Version, VersionDetail } from './schema.ts';

/** One version of one project: named, so that the two ids cannot be swapped. */
export interface VersionRef {
  projectId: string;
  versionId: string;
}

export class VersionsService {
  constructor(
    private readonly database: Database,
    private readonly previewLinks: PreviewLinks,
    private readonly writer: ContentWriter,
  ) {}

  private get db() {
    return this.database.db;
  }

  async list(
    principal: Principal,
    projectId: string,
    limit: number,
    offset: number,
  ): Promise<{ versions: Version[]; total: number }> {
    await visibleProject(this.db, principal, projectId);
    const { rows, total } = await repo.listVersions(this.db, principal.orgId, projectId, limit, offset);
    return { versions: rows.map(repo.toVersion), total };
  }

  async get(principal: Principal, ref: VersionRef): Promise<VersionDetail> {
    const row = await this.find(principal, ref);
    const link = await this.previewLinks.version(row.id);
    return {
      ...repo.toVersion(row),
      files: await repo.versionFiles(this.db, row.id),
      preview_url: link.url,
      preview_expires_at: link.expiresAt,
    };
  }

  /** The project's newest version, if it has any files yet. */
  async latest(principal: Principal, projectId: string): Promise<Version | undefined> {
    await visibleProject(this.db, principal, projectId);
    const row = await repo.latestVersion(this.db, principal.orgId, projectId);
    return row && repo.toVersion(row);
  }

  async file(principal: Principal, ref: VersionRef, rawPath: string) {
    const path = validPath(rawPath);
    const row = await this.find(principal, ref);
    const file = await repo.versionFile(this.db, row.id, path);
    if (!file) throw notFound('File');
    return file;
  }

  /** Makes the project's files those of `versionId` again, as a new version (never destructive). */
  async restore(principal: Principal, { projectId, versionId }: VersionRef): Promise<Version> {
    const row = await this.writer.change(principal, projectId, {
      write: async (files, project) => {
        const target = await repo.findVersion(files.trx, project.org_id, project.id, versionId);
        if (!target) throw notFound('Version');
        await files.checkOut(target.id);
        return target;
      },
      version: (target) => ({
        source: 'restore',
        summary: `Restored version ${target.number}`,
        actor: authorOf(principal),
        always: true,
      }),
      finish: (trx, _target, made) => repo.findVersion(trx, principal.orgId, projectId, made!.id),
    });
    return repo.toVersion(row!);
  }

  private async find(principal: Principal, { projectId, versionId }: VersionRef) {
    await visibleProject(this.db, principal, projectId);
    const row = await repo.findVersion(this.db, principal.orgId, projectId, versionId);
    if (!row) throw notFound('Version');
    return row;
  }
}
