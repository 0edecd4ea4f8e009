// The one way a project's content changes: every writer (the files API and the builder's edits, a
// new project's template, a restore, a generation's result, a publish) goes through ContentWriter.
// It takes the project's lock for the transaction (db/locks.ts: concurrent writers queue, so the
// limits checked are the totals written), hands the caller the working files with every rule
// checked on write, records what changed as a version, and then lets the caller finish its work
// (a deployment, a generation's state, an event) in the same transaction, with that version.
import type { Database } from '../../db/index.ts';
import { requireAbility, requirePermission, requireVisibleProject } from '../access/access.ts';
import type { EmbedAbility, Principal } from '../access/principal.ts';
import type { Executor } from '../../db/executor.ts';
import { lockProject, type ProjectRow } from '../projects/repo.ts';
import * as files from '../files/repo.ts';
import {
  checkFileSet,
  checkImages,
  checkFileSize,
  checkProjectTotals,
  type FileLimits,
  type SiteFile,
} from '../files/rules.ts';
import type { FileMeta } from '../files/schema.ts';
import * as versions from '../versions/repo.ts';
import type { NewVersion, VersionRow } from '../versions/repo.ts';

/** What the version of a change says: its source, summary and author (the project is known). */
export type VersionNote = Omit<NewVersion, 'orgId' | 'projectId'>;

export interface ContentChange<T, R> {
  /** Changes the working files (through `files`); its result is handed on. */
  write(files: WorkingFiles, project: ProjectRow): Promise<T>;
  /** The version the change makes; null: none (a publish of a build's own files). */
  version(result: T): VersionNote | null;
  /**
   * The rest of the change, in the same transaction: `version` is the one recorded, or undefined
   * when the files equal the latest version's (nothing changed).
   */
  finish?(trx: Executor, result: T, version: VersionRow | undefined, project: ProjectRow): Promise<R>;
  /** What an embed session needs for it: `edit` unless said (a publish needs `publish`). */
  ability?: EmbedAbility;
}

export class ContentWriter {
  constructor(
    private readonly database: Database,
    private readonly limits: FileLimits,
  ) {}

  /**
   * Runs `change` on project `projectId` in one transaction holding the project's lock, when
   * `principal` may write it (access/access.ts); otherwise the project is not found or refused.
   */
  change<T, R = T>(principal: Principal, projectId: string, change: ContentChange<T, R>): Promise<R> {
    requirePermission(principal, 'write');
    requireAbility(principal, change.ability ?? 'edit');
    return this.database.transaction(async (trx) => {
      const project = await lockProject(trx, principal.orgId, projectId);
      requireVisibleProject(principal, project);
      return this.apply(trx, project, change);
    });
  }

  /**
   * Runs `change` on a project created in the caller's transaction `trx`: nobody else can see it
   * before that commits, so there is nothing to lock.
   */
  changeNew<T, R = T>(trx: Executor, project: ProjectRow, change: ContentChange<T, R>): Promise<R> {
    return this.apply(trx, project, change);
  }

  private async apply<T, R>(trx: Executor, project: ProjectRow, change: ContentChange<T, R>): Promise<R> {
    const working = new WorkingFiles(trx, project.org_id, project.id, this.limits);
    const result = await change.write(working, project);
    const note = change.version(result);
    const version = note
      ? await versions.recordVersion(trx, { orgId: project.org_id, projectId: project.id, ...note })
      : undefined;
    return change.finish ? change.finish(trx, result, version, project) : (result as unknown as R);
  }
}

/** A locked project's working files: every write checks paths, sizes and the project's totals. */
export class WorkingFiles {
  constructor(
    /** The change's transaction, for the caller's own reads and writes under the same lock. */
    readonly trx: Executor,
    private readonly orgId: string,
    private readonly projectId: string,
    private readonly limits: FileLimits,
  ) {}

  get(path: string) {
    return files.getFile(this.trx, this.orgId, this.projectId, path);
  }

  all(): Promise<SiteFile[]> {
    return files.readProjectFiles(this.trx, this.orgId, this.projectId);
  }

  /** Creates or replaces one file (path already validated); `created` tells which. */
  async put(path: string, content: Buffer): Promise<{ file: FileMeta; created: boolean }> {
    checkFileSize(path, content.length, this.limits);
    await checkImages([[path, content]], this.limits);
    const others = await files.projectTotals(this.trx, this.orgId, this.projectId, path);
    checkProjectTotals(others.files + 1, others.bytes + content.length, this.limits);
    const row = files.fileRow(this.orgId, this.projectId, path, content, new Date().toISOString());
    const existed = await files.fileExists(this.trx, this.orgId, this.projectId, path);
    if (existed) await files.updateFile(this.trx, row);
    else await files.insertFile(this.trx, row);
    return { file: files.toMeta(row), created: !existed };
  }

  /** Deletes one file; false when there is none at `path`. */
  delete(path: string): Promise<boolean> {
    return files.deleteFile(this.trx, this.orgId, this.projectId, path);
  }

  /** Makes `set` the whole set of files (each checked, and the totals); returns the checked set. */
  async replaceAll(set: SiteFile[]): Promise<Map<string, Buffer>> {
    const checked = checkFileSet(set, this.limits);
    const stored = await files.listFiles(this.trx, this.orgId, this.projectId);
    await checkImages(checked, this.limits, new Map(stored.map((f) => [f.path, f.sha256])));
    await files.replaceProjectFiles(this.trx, this.orgId, this.projectId, checked);
    return checked;
  }

  /** Makes the files those of one of the project's versions. */
  checkOut(versionId: string): Promise<void> {
    return versions.checkOutVersion(this.trx, this.orgId, this.projectId, versionId);
  }

  /** Copies a template's files in (the project's first files). */
  copyTemplate(templateId: string): Promise<void> {
    return files.copyTemplateToProject(this.trx, this.orgId, templateId, this.projectId);
  }
}
