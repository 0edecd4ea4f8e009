// SQL of versions: immutable file sets of a project, numbered 1, 2, 3... Each keeps a manifest
// (path, sha256, size, type per file) whose bytes are blobs shared with every other version,
// deployment and template that holds the same content.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/executor.ts';
import { num } from '../../db/executor.ts';
import type { VersionSource, VersionsTable } from '../../db/schema.ts';
import { toIso } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { manifestSha256 } from '../../lib/manifest.ts';
import { storeProjectBlobs } from '../files/blobs-repo.ts';
import { encodingFor } from '../files/content.ts';
import type { Actor, Version, VersionFile } from './schema.ts';

export type VersionRow = Selectable<VersionsTable> & {
  user_name?: string | null;
  user_email?: string | null;
  key_name?: string | null;
};

export function toVersion(row: VersionRow): Version {
  const author = row.author_user_id
    ? { type: 'user' as const, id: row.author_user_id, name: row.user_name ?? row.user_email ?? null }
    : row.author_key_id
      ? { type: 'api_key' as const, id: row.author_key_id, name: row.key_name ?? null }
      : null;
  return {
    id: row.id,
    project_id: row.project_id,
    number: num(row.number),
    created_at: toIso(row.created_at),
    source: row.source,
    generation_id: row.generation_id,
    summary: row.summary,
    author,
    file_count: num(row.file_count),
    size: num(row.size),
  };
}

export interface NewVersion {
  orgId: string;
  projectId: string;
  source: VersionSource;
  generationId?: string | null;
  summary?: string | null;
  actor?: Actor | undefined;
  /** Record it even when the files equal the latest version's (a restore is always a new version). */
  always?: boolean;
}

/**
 * Makes the project's working files (project_files) a new version, inside the caller's
 * transaction, which must hold the project's write lock. Returns undefined when the files are
 * exactly those of the latest version and `always` is not set: nothing changed.
 */
export async function recordVersion(trx: Executor, v: NewVersion): Promise<VersionRow | undefined> {
  const files = await trx
    .selectFrom('project_files')
    .select(['path', 'sha256', 'size'])
    .where('org_id', '=', v.orgId)
    .where('project_id', '=', v.projectId)
    .execute();
  const manifest = manifestSha256(files);
  const latest = await trx
    .selectFrom('versions')
    .select(['number', 'manifest_sha256'])
    .where('project_id', '=', v.projectId)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!v.always && latest && latest.manifest_sha256 === manifest) return undefined;
  if (!latest && files.length === 0) return undefined;
  await storeProjectBlobs(trx, v.orgId, v.projectId);
  const row = {
    id: newId(),
    org_id: v.orgId,
    project_id: v.projectId,
    number: (latest ? num(latest.number) : 0) + 1,
    source: v.source,
    generation_id: v.generationId ?? null,
    summary: v.summary ?? null,
    author_user_id: v.actor?.userId ?? null,
    author_key_id: v.actor?.userId ? null : (v.actor?.keyId ?? null),
    manifest_sha256: manifest,
    file_count: files.length,
    size: files.reduce((sum, f) => sum + num(f.size), 0),
    created_at: new Date().toISOString(),
  };
  await trx.insertInto('versions').values(row).execute();
  await trx
    .insertInto('version_files')
    .columns(['version_id', 'path', 'sha256', 'size', 'content_type'])
    .expression((eb) =>
      eb
        .selectFrom('project_files')
        .select((s) => [s.val(row.id).as('version_id'), 'path', 'sha256', 'size', 'content_type'])
        .where('org_id', '=', v.orgId)
        .where('project_id', '=', v.projectId),
    )
    .execute();
  return row;
}

function versionsWithAuthors(db: Executor) {
  return db
    .selectFrom('versions as v')
    .leftJoin('users as u', 'u.id', 'v.author_user_id')
    .leftJoin('api_keys as k', 'k.id', 'v.author_key_id')
    .selectAll('v')
    .select(['u.name as user_name', 'u.email as user_email', 'k.name as key_name']);
}

export async function listVersions(
  db: Executor,
  orgId: string,
  projectId: string,
  limit: number,
  offset: number,
): Promise<{ rows: VersionRow[]; total: number }> {
  const rows = await versionsWithAuthors(db)
    .where('v.org_id', '=', orgId)
    .where('v.project_id', '=', projectId)
    .orderBy('v.number', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const count = await db
    .selectFrom('versions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return { rows, total: num(count.n) };
}

export function findVersion(
  db: Executor,
  orgId: string,
  projectId: string,
  id: string,
): Promise<VersionRow | undefined> {
  return versionsWithAuthors(db)
    .where('v.org_id', '=', orgId)
    .where('v.project_id', '=', projectId)
    .where('v.id', '=', id)
    .executeTakeFirst();
}

export async function latestVersion(
  db: Executor,
  orgId: string,
  projectId: string,
): Promise<VersionRow | undefined> {
  return versionsWithAuthors(db)
    .where('v.org_id', '=', orgId)
    .where('v.project_id', '=', projectId)
    .orderBy('v.number', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function versionFiles(db: Executor, versionId: string): Promise<VersionFile[]> {
  const rows = await db
    .selectFrom('version_files')
    .select(['path', 'size', 'content_type', 'sha256'])
    .where('version_id', '=', versionId)
    .orderBy('path')
    .execute();
  return rows.map((r) => ({ ...r, size: num(r.size) }));
}

export async function versionFile(db: Executor, versionId: string, path: string) {
  const row = await db
    .selectFrom('version_files as f')
    .innerJoin('blobs as b', 'b.sha256', 'f.sha256')
    .select(['f.path', 'f.size', 'f.content_type', 'f.sha256', 'b.content'])
    .where('f.version_id', '=', versionId)
    .where('f.path', '=', path)
    .executeTakeFirst();
  if (!row) return undefined;
  const content = Buffer.from(row.content);
  const encoding = encodingFor(row.content_type, content);
  return {
    path: row.path,
    size: num(row.size),
    content_type: row.content_type,
    sha256: row.sha256,
    content: content.toString(encoding),
    encoding,
  };
}

/** Makes the project's working files those of version `versionId` (the caller holds the project's lock). */
export async function checkOutVersion(
  trx: Executor,
  orgId: string,
  projectId: string,
  versionId: string,
): Promise<void> {
  await trx
    .deleteFrom('project_files')
    .where('org_id', '=', orgId)
    .where('project_id', '=', projectId)
    .execute();
  const now = new Date().toISOString();
  await trx
    .insertInto('project_files')
    .columns(['org_id', 'project_id', 'path', 'content', 'content_type', 'size', 'sha256', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('version_files as f')
        .innerJoin('blobs as b', 'b.sha256', 'f.sha256')
        .select((s) => [
          s.val(orgId).as('org_id'),
          s.val(projectId).as('project_id'),
          'f.path',
          'b.content',
          'f.content_type',
          'f.size',
          'f.sha256',
          s.val(now).as('updated_at'),
        ])
        .where('f.version_id', '=', versionId),
    )
    .execute();
}
