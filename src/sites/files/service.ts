// Site files of projects: every read and write scoped by organization, every write validated
// (paths, per-file and per-project limits) before anything is stored, so a refused write changes
// nothing. Whole-set replacement (AI generation) and single-file writes (the files API) share the
// same rules.
import type { Executor } from '../../db/executor.ts';
import { num } from '../../db/executor.ts';
import { toIso } from '../../lib/clock.ts';
import { ApiError, badRequest } from '../../lib/errors.ts';
import type { SiteFile } from '../generate/provider.ts';
import { contentTypeFor, encodingFor, isTextType, sha256 } from './content.ts';
import { normalisePath, PathError } from './paths.ts';

export interface FileLimits {
  maxFileBytes: number;
  maxProjectBytes: number;
  maxProjectFiles: number;
}

export interface FileMeta {
  path: string;
  size: number;
  content_type: string;
  sha256: string;
  updated_at: string;
}

export interface FileWithContent extends FileMeta {
  content: string;
  encoding: 'utf8' | 'base64';
}

const META = ['path', 'size', 'content_type', 'sha256', 'updated_at'] as const;

function toMeta(row: { path: string; size: number | string; content_type: string; sha256: string; updated_at: string | Date }): FileMeta {
  return { path: row.path, size: num(row.size), content_type: row.content_type, sha256: row.sha256, updated_at: toIso(row.updated_at) };
}

/** A path from a request, normalised, or a 400 naming what is wrong with it. */
export function validPath(raw: string, field = 'path'): string {
  try {
    return normalisePath(raw);
  } catch (error) {
    if (error instanceof PathError) throw badRequest(`${field} '${raw.slice(0, 300)}' ${error.message}`);
    throw error;
  }
}

const mib = (bytes: number) => `${+(bytes / 1_048_576).toFixed(2)} MiB`;

export function checkFileSize(path: string, size: number, limits: FileLimits): void {
  if (size > limits.maxFileBytes) {
    throw new ApiError(413, `File '${path}' is ${size} bytes; the limit is FILE_MAX_BYTES = ${limits.maxFileBytes} (${mib(limits.maxFileBytes)})`);
  }
}

export function checkProjectTotals(files: number, bytes: number, limits: FileLimits): void {
  if (files > limits.maxProjectFiles) {
    throw badRequest(`A project may hold at most PROJECT_MAX_FILES = ${limits.maxProjectFiles} files; this would make ${files}`);
  }
  if (bytes > limits.maxProjectBytes) {
    throw new ApiError(413, `A project may hold at most PROJECT_MAX_BYTES = ${limits.maxProjectBytes} (${mib(limits.maxProjectBytes)}); this would make ${bytes} bytes`);
  }
}

export async function listFiles(db: Executor, orgId: string, projectId: string): Promise<FileMeta[]> {
  const rows = await db.selectFrom('project_files').select(META).where('org_id', '=', orgId).where('project_id', '=', projectId).orderBy('path').execute();
  return rows.map(toMeta);
}

export async function getFile(db: Executor, orgId: string, projectId: string, path: string): Promise<FileWithContent | undefined> {
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

/** Creates or replaces one file; `created` tells which. The caller runs it in a transaction. */
export async function putFile(
  trx: Executor,
  orgId: string,
  projectId: string,
  path: string,
  content: Buffer,
  limits: FileLimits,
): Promise<{ file: FileMeta; created: boolean }> {
  checkFileSize(path, content.length, limits);
  const others = await trx
    .selectFrom('project_files')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes')])
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .where('path', '!=', path)
    .executeTakeFirstOrThrow();
  checkProjectTotals(num(others.n) + 1, num(others.bytes) + content.length, limits);
  const existing = await trx.selectFrom('project_files').select('path').where('project_id', '=', projectId).where('path', '=', path).executeTakeFirst();
  const row = { org_id: orgId, project_id: projectId, path, content, content_type: contentTypeFor(path), size: content.length, sha256: sha256(content), updated_at: new Date().toISOString() };
  if (existing) {
    await trx.updateTable('project_files').set(row).where('project_id', '=', projectId).where('path', '=', path).execute();
  } else {
    await trx.insertInto('project_files').values(row).execute();
  }
  return { file: toMeta(row), created: !existing };
}

export async function deleteFile(db: Executor, orgId: string, projectId: string, path: string): Promise<boolean> {
  const result = await db.deleteFrom('project_files').where('org_id', '=', orgId).where('project_id', '=', projectId).where('path', '=', path).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every file of the project with its content: strings for text, Buffers for binary files. */
export async function readProjectFiles(db: Executor, orgId: string, projectId: string): Promise<SiteFile[]> {
  const rows = await db
    .selectFrom('project_files')
    .select(['path', 'content', 'content_type'])
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .orderBy('path')
    .execute();
  return rows.map((r) => {
    const content = Buffer.from(r.content);
    return { path: r.path, content: isTextType(r.content_type) && encodingFor(r.content_type, content) === 'utf8' ? content.toString('utf8') : content };
  });
}

/**
 * Replaces the project's whole file set with `files` (files not listed are removed), after
 * checking every path and limit; returns the paths written, sorted. Run it in a transaction.
 */
export async function replaceProjectFiles(trx: Executor, orgId: string, projectId: string, files: SiteFile[], limits: FileLimits): Promise<string[]> {
  const byPath = new Map<string, Buffer>();
  let bytes = 0;
  for (const file of files) {
    const path = validPath(file.path);
    if (byPath.has(path)) throw badRequest(`path '${path}' appears twice`);
    const content = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
    checkFileSize(path, content.length, limits);
    bytes += content.length;
    byPath.set(path, content);
  }
  checkProjectTotals(byPath.size, bytes, limits);
  await trx.deleteFrom('project_files').where('org_id', '=', orgId).where('project_id', '=', projectId).execute();
  const now = new Date().toISOString();
  const rows = [...byPath].map(([path, content]) => ({
    org_id: orgId,
    project_id: projectId,
    path,
    content,
    content_type: contentTypeFor(path),
    size: content.length,
    sha256: sha256(content),
    updated_at: now,
  }));
  // Bounded batches: SQLite allows a limited number of bound parameters per statement.
  for (let i = 0; i < rows.length; i += 50) await trx.insertInto('project_files').values(rows.slice(i, i + 50)).execute();
  return [...byPath.keys()].sort();
}

/** Copies a template's files into a new project (the project row must exist). */
export async function copyTemplateToProject(trx: Executor, orgId: string, templateId: string, projectId: string): Promise<void> {
  await trx
    .insertInto('project_files')
    .columns(['org_id', 'project_id', 'path', 'content', 'content_type', 'size', 'sha256', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('template_files')
        .select((s) => [s.val(orgId).as('org_id'), s.val(projectId).as('project_id'), 'path', 'content', 'content_type', 'size', 'sha256', 'updated_at'])
        .where('org_id', '=', orgId)
        .where('template_id', '=', templateId),
    )
    .execute();
}

/** Snapshots a project's files into a new template (the template row must exist). */
export async function snapshotProjectToTemplate(trx: Executor, orgId: string, projectId: string, templateId: string): Promise<void> {
  await trx
    .insertInto('template_files')
    .columns(['org_id', 'template_id', 'path', 'content', 'content_type', 'size', 'sha256', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('project_files')
        .select((s) => [s.val(orgId).as('org_id'), s.val(templateId).as('template_id'), 'path', 'content', 'content_type', 'size', 'sha256', 'updated_at'])
        .where('org_id', '=', orgId)
        .where('project_id', '=', projectId),
    )
    .execute();
}

export async function listTemplateFiles(db: Executor, orgId: string, templateId: string): Promise<FileMeta[]> {
  const rows = await db.selectFrom('template_files').select(META).where('org_id', '=', orgId).where('template_id', '=', templateId).orderBy('path').execute();
  return rows.map(toMeta);
}
