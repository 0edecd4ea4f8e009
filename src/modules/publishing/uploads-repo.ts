// SQL of archive uploads on their way to a deployment (migration 022). A file is stored as soon
// as the archive yields it; the publish turns the stored files into blobs and a deployment's rows
// inside the database, so their bytes never pass through the server's memory a second time.
import { insertInBatches } from '../../db/batches.ts';
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { holdBlobStore } from '../../db/locks.ts';
import { contentTypeFor, sha256 } from '../files/content.ts';

export interface UploadedFile {
  path: string;
  sha256: string;
  size: number;
}

/** Stores one file of upload `uploadId` (its own short write: an upload holds no transaction open). */
export async function storeUploadFile(
  database: Database,
  upload: { id: string; orgId: string },
  file: UploadedFile & { content: Buffer },
): Promise<void> {
  await database.db
    .insertInto('upload_files')
    .values({
      upload_id: upload.id,
      org_id: upload.orgId,
      path: file.path,
      sha256: file.sha256,
      size: file.size,
      content: file.content,
      created_at: new Date().toISOString(),
    })
    .execute();
}

/** The content of one file of an upload. */
export async function readUploadFile(
  trx: Executor,
  upload: { id: string; orgId: string },
  path: string,
): Promise<Buffer> {
  const row = await trx
    .selectFrom('upload_files')
    .select('content')
    .where('upload_id', '=', upload.id)
    .where('org_id', '=', upload.orgId)
    .where('path', '=', path)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.content);
}

/** Removes one file of an upload (a page publishing leaves out): no blob is made of it. */
export async function removeUploadFile(
  trx: Executor,
  upload: { id: string; orgId: string },
  path: string,
): Promise<void> {
  await trx
    .deleteFrom('upload_files')
    .where('upload_id', '=', upload.id)
    .where('org_id', '=', upload.orgId)
    .where('path', '=', path)
    .execute();
}

/** Writes (or replaces) one file of an upload, inside the publish's transaction. */
export async function writeUploadFile(
  trx: Executor,
  upload: { id: string; orgId: string },
  path: string,
  content: Buffer,
): Promise<UploadedFile> {
  const file = { path, sha256: sha256(content), size: content.length };
  await removeUploadFile(trx, upload, path);
  await trx
    .insertInto('upload_files')
    .values({
      upload_id: upload.id,
      org_id: upload.orgId,
      ...file,
      content,
      created_at: new Date().toISOString(),
    })
    .execute();
  return file;
}

/**
 * Stores the upload's files as blobs (those not stored yet, copied inside the database) and as
 * the files of deployment `deploymentId`, each under the path it is published at.
 */
export async function deployUpload(
  trx: Executor,
  upload: { id: string; orgId: string },
  deploymentId: string,
  files: readonly UploadedFile[],
): Promise<void> {
  await holdBlobStore(trx, 'write');
  await trx
    .insertInto('blobs')
    .columns(['sha256', 'content', 'size', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('upload_files as u')
        .select((s) => ['u.sha256', 'u.content', 'u.size', s.val(new Date().toISOString()).as('created_at')])
        .where('u.upload_id', '=', upload.id)
        .where('u.org_id', '=', upload.orgId)
        // Filtered before the content is read: a file already stored costs an index probe.
        .where((w) =>
          w.not(
            w.exists(w.selectFrom('blobs as b').select('b.sha256').whereRef('b.sha256', '=', 'u.sha256')),
          ),
        ),
    )
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
  const rows = files.map((file) => ({
    deployment_id: deploymentId,
    path: file.path,
    content_type: contentTypeFor(file.path),
    size: file.size,
    sha256: file.sha256,
  }));
  await insertInBatches(trx, 'deployment_files', rows);
}

/** Removes what upload `uploadId` stored. */
export async function discardUpload(database: Database, uploadId: string): Promise<void> {
  await database.db.deleteFrom('upload_files').where('upload_id', '=', uploadId).execute();
}

/** Removes the files of uploads that began before `before` (an interrupted process left them). */
export async function discardUploadsBefore(database: Database, before: Date): Promise<void> {
  await database.db.deleteFrom('upload_files').where('created_at', '<', before.toISOString()).execute();
}
