// Versions: every change to a project's files is an immutable version. File content moves into
// content-addressed blobs (one row per distinct sha256) that versions, deployments and templates
// refer to, so a version costs a small manifest row per file and the bytes of the files it
// changed, nothing more. A project's working files (project_files) keep their own copy: they are
// what the files API reads and writes, and what the next version is made from.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';
import { newId } from '../../lib/ids.ts';
import { manifestSha256 } from '../../lib/manifest.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';
  const now = new Date().toISOString();

  await db.schema
    .createTable('blobs')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('content', bytes, (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  // The bytes deployments and templates held themselves become blobs, then their rows keep the hash.
  for (const table of ['deployment_files', 'template_files', 'project_files']) {
    await sql`insert into blobs (sha256, content, size, created_at)
      select sha256, content, size, ${now} from ${sql.table(table)} where true
      on conflict (sha256) do nothing`.execute(db);
  }
  for (const table of ['deployment_files', 'template_files']) {
    await db.schema.alterTable(table).dropColumn('content').execute();
    await db.schema.createIndex(`${table}_sha256`).on(table).column('sha256').execute();
  }

  await db.schema
    .createTable('versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('generation_id', 'text')
    .addColumn('summary', 'text')
    .addColumn('author_user_id', 'text')
    .addColumn('author_key_id', 'text')
    // sha256 of the sorted "path sha256" lines: two versions with equal manifests hold equal files.
    .addColumn('manifest_sha256', 'text', (c) => c.notNull())
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('versions_project_number', ['project_id', 'number'])
    .execute();

  await db.schema
    .createTable('version_files')
    .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('version_files_pk', ['version_id', 'path'])
    .execute();
  await db.schema.createIndex('version_files_sha256').on('version_files').column('sha256').execute();

  // The version a deployment published (null: published from builtFiles, or before versions).
  await db.schema.alterTable('deployments').addColumn('version_id', 'text').execute();
  // Who asked for a generation: the author of the version it makes.
  await db.schema.alterTable('generations').addColumn('author_user_id', 'text').execute();
  await db.schema.alterTable('generations').addColumn('author_key_id', 'text').execute();

  await firstVersions(db, now);
}

interface FileRow {
  org_id: string;
  project_id: string;
  path: string;
  sha256: string;
  size: number | string;
  content_type: string;
}

/** Every project that has files gets version 1 from them, so its history starts where it stands. */
async function firstVersions(db: Kysely<unknown>, now: string): Promise<void> {
  const { rows } =
    await sql<FileRow>`select org_id, project_id, path, sha256, size, content_type from project_files order by project_id, path`.execute(
      db,
    );
  const byProject = new Map<string, FileRow[]>();
  for (const row of rows) byProject.set(row.project_id, [...(byProject.get(row.project_id) ?? []), row]);
  for (const [projectId, files] of byProject) {
    const id = newId();
    const size = files.reduce((sum, f) => sum + Number(f.size), 0);
    await sql`insert into versions (id, org_id, project_id, number, source, generation_id, summary, author_user_id, author_key_id, manifest_sha256, file_count, size, created_at)
      values (${id}, ${files[0]!.org_id}, ${projectId}, 1, 'files_api', null, 'The files the project had when versions began', null, null, ${manifestSha256(files)}, ${files.length}, ${size}, ${now})`.execute(
      db,
    );
    await sql`insert into version_files (version_id, path, sha256, size, content_type)
      select ${id}, path, sha256, size, content_type from project_files where project_id = ${projectId}`.execute(
      db,
    );
  }
}
