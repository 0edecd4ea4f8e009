// SQL of site files: a project's current files and a template's snapshot. Every function takes
// the organization id. Rules (paths, limits) are checked by the callers first (rules.ts).
import { zipSync, type Zippable } from 'fflate';
import { insertInBatches } from '../../db/batches.ts';
import type { Executor } from '../../db/executor.ts';
import { num } from '../../db/executor.ts';
import { toIso } from '../../lib/clock.ts';
import { storeProjectBlobs } from './blobs-repo.ts';
import { contentTypeFor, encodingFor, isTextType, sha256 } from './content.ts';
import type { SiteFile } from './rules.ts';
import type { FileMeta, FileWithContent } from './schema.ts';

const META = ['path', 'size', 'content_type', 'sha256', 'updated_at'] as const;

export function toMeta(row: {
  path: string;
  size: number | string;
  content_type: string;
  sha256: string;
  updated_at: string | Date;
}): FileMeta {
  return {
    path: row.path,
    size: num(row.size),
    content_type: row.content_type,
    sha256: row.sha256,
    updated_at: toIso(row.updated_at),
  };
}

/** The stored row of a file's bytes. */
export function fileRow(orgId: string, projectId: string, path: string, content: Buffer, updatedAt: string) {
  return {
    org_id: orgId,
    project_id: projectId,
    path,
    content,
    content_type: contentTypeFor(path),
    size: content.length,
    sha256: sha256(content),
    updated_at: updatedAt,
  };
}

export async function listFiles(db: Executor, orgId: string, projectId: string): Promise<FileMeta[]> {
  const rows = await db
    .selectFrom('project_files')
    .select(META)
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .orderBy('path')
    .execute();
  return rows.map(toMeta);
}

export async function getFile(
  db: Executor,
  orgId: string,
  projectId: string,
  path: string,
): Promise<FileWithContent | undefined> {
  const row = await db
    .selectFrom('project_files')
    .select([...META, 'content'])
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('path', '=', path)
    .executeTakeFirst();
  if (!row) return undefined;
  const content = Buffer.from(row.content);
  const encoding = encodingFor(row.content_type, content);
  return { ...toMeta(row), content: content.toString(encoding), encoding };
}

/** How many files the project holds and their bytes, leaving out `except` (the path about to be replaced). */
export async function projectTotals(
  db: Executor,
  orgId: string,
  projectId: string,
  except: string,
): Promise<{ files: number; bytes: number }> {
  const row = await db
    .selectFrom('project_files')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'),
    ])
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('path', '!=', except)
    .executeTakeFirstOrThrow();
  return { files: num(row.n), bytes: num(row.bytes) };
}

export async function fileExists(
  db: Executor,
  orgId: string,
  projectId: string,
  path: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('project_files')
    .select('path')
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('path', '=', path)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertFile(db: Executor, row: ReturnType<typeof fileRow>): Promise<void> {
  await db.insertInto('project_files').values(row).execute();
}

export async function updateFile(db: Executor, row: ReturnType<typeof fileRow>): Promise<void> {
  await db
    .updateTable('project_files')
    .set(row)
    .where('org_id', '=', row.org_id)
    .where('project_id', '=', row.project_id)
    .where('path', '=', row.path)
    .execute();
}

export async function deleteFile(
  db: Executor,
  orgId: string,
  projectId: string,
  path: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('project_files')
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('path', '=', path)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Every file of the project with its content: strings for text, Buffers for binary files.
 * `pagesOnly`: only files that may be pages (`.htm`, `.html`, any case), not a byte of the rest.
 */
export async function readProjectFiles(
  db: Executor,
  orgId: string,
  projectId: string,
  pagesOnly = false,
): Promise<SiteFile[]> {
  let query = db
    .selectFrom('project_files')
    .select(['path', 'content', 'content_type'])
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId);
  if (pagesOnly) query = query.where((eb) => eb(eb.fn('lower', ['path']), 'like', '%.htm%'));
  const rows = await query.orderBy('path').execute();
  return rows.map((r) => {
    const content = Buffer.from(r.content);
    return {
      path: r.path,
      content:
        isTextType(r.content_type) && encodingFor(r.content_type, content) === 'utf8'
          ? content.toString('utf8')
          : content,
    };
  });
}

/** Replaces the project's whole file set with `files` (already checked); files not listed are removed. */
export async function replaceProjectFiles(
  trx: Executor,
  orgId: string,
  projectId: string,
  files: Map<string, Buffer>,
): Promise<void> {
  await trx
    .deleteFrom('project_files')
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .execute();
  const now = new Date().toISOString();
  await insertInBatches(
    trx,
    'project_files',
    [...files].map(([path, content]) => fileRow(orgId, projectId, path, content, now)),
  );
}

/** A project's files as a zip archive. */
export async function zipProjectFiles(db: Executor, orgId: string, projectId: string): Promise<Buffer> {
  const rows = await db
    .selectFrom('project_files')
    .select(['path', 'content', 'updated_at'])
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .orderBy('path')
    .execute();
  const tree: Zippable = {};
  for (const row of rows) tree[row.path] = [new Uint8Array(row.content), { mtime: new Date(row.updated_at) }];
  return Buffer.from(zipSync(tree, { level: 6 }));
}

/** Copies a template's files into a new project (the project row must exist). */
export async function copyTemplateToProject(
  trx: Executor,
  orgId: string,
  templateId: string,
  projectId: string,
): Promise<void> {
  await trx
    .insertInto('project_files')
    .columns(['org_id', 'project_id', 'path', 'content', 'content_type', 'size', 'sha256', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('template_files as t')
        .innerJoin('blobs as b', 'b.sha256', 't.sha256')
        .select((s) => [
          s.val(orgId).as('org_id'),
          s.val(projectId).as('project_id'),
          't.path',
          'b.content',
          't.content_type',
          't.size',
          't.sha256',
          't.updated_at',
        ])
        .where('t.org_id', '=', orgId)
        .where('t.template_id', '=', templateId),
    )
    .execute();
}

/** Snapshots a project's files into a new template (the template row must exist): its blobs, then their hashes. */
export async function snapshotProjectToTemplate(
  trx: Executor,
  orgId: string,
  projectId: string,
  templateId: string,
): Promise<void> {
  await storeProjectBlobs(trx, orgId, projectId);
  await trx
    .insertInto('template_files')
    .columns(['org_id', 'template_id', 'path', 'content_type', 'size', 'sha256', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('project_files')
        .select((s) => [
          s.val(orgId).as('org_id'),
          s.val(templateId).as('template_id'),
          'path',
          'content_type',
          'size',
          'sha256',
          'updated_at',
        ])
        .where('org_id', '=', orgId)
        .where('project_id', '=', projectId),
    )
    .execute();
}

export async function listTemplateFiles(
  db: Executor,
  orgId: string,
  templateId: string,
): Promise<FileMeta[]> {
  const rows = await db
    .selectFrom('template_files')
    .select(META)
    .where('org_id', '=', orgId)
    .where('template_id', '=', templateId)
    .orderBy('path')
    .execute();
  return rows.map(toMeta);
}
