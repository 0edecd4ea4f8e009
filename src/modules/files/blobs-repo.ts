// Content-addressed file bytes, one row per distinct sha256, shared by versions, deployments and
// templates (each keeps only the hash). A blob is written once, when a file set that refers to it
// is first stored, and removed when nothing refers to it any more.
import { sql } from 'kysely';
import type { Executor } from '../../db/executor.ts';
import { holdBlobStore } from '../../db/locks.ts';
import { sha256 } from './content.ts';

/** Stores the bytes of the project's working files that no blob holds yet. */
export async function storeProjectBlobs(trx: Executor, orgId: string, projectId: string): Promise<void> {
  await holdBlobStore(trx, 'write');
  await trx
    .insertInto('blobs')
    .columns(['sha256', 'content', 'size', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('project_files as f')
        .select((s) => ['f.sha256', 'f.content', 'f.size', s.val(new Date().toISOString()).as('created_at')])
        .where('f.org_id', '=', orgId)
        .where('f.project_id', '=', projectId)
        // Filtered before the content is read: an unchanged file costs an index probe, not its bytes.
        .where((w) =>
          w.not(
            w.exists(w.selectFrom('blobs as b').select('b.sha256').whereRef('b.sha256', '=', 'f.sha256')),
          ),
        ),
    )
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
}

/** Stores `contents` as blobs (those not stored yet) and returns each one's sha256 by path. */
export async function storeBlobs(trx: Executor, contents: Map<string, Buffer>): Promise<Map<string, string>> {
  await holdBlobStore(trx, 'write');
  const hashes = new Map<string, string>();
  const rows = new Map<string, { sha256: string; content: Buffer; size: number; created_at: string }>();
  const now = new Date().toISOString();
  for (const [path, content] of contents) {
    const hash = sha256(content);
    hashes.set(path, hash);
    rows.set(hash, { sha256: hash, content, size: content.length, created_at: now });
  }
  const known = new Set<string>();
  const all = [...rows.keys()];
  for (let i = 0; i < all.length; i += 500) {
    const found = await trx
      .selectFrom('blobs')
      .select('sha256')
      .where('sha256', 'in', all.slice(i, i + 500))
      .execute();
    for (const row of found) known.add(row.sha256);
  }
  const fresh = [...rows.values()].filter((r) => !known.has(r.sha256));
  for (let i = 0; i < fresh.length; i += 50) {
    await trx
      .insertInto('blobs')
      .values(fresh.slice(i, i + 50))
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
  }
  return hashes;
}

/** Removes the blobs among `hashes` that no version, deployment or template refers to any more, and their images' copies. */
export async function sweepBlobs(trx: Executor, hashes: Iterable<string>): Promise<void> {
  await holdBlobStore(trx, 'sweep');
  const all = [...new Set(hashes)];
  for (let i = 0; i < all.length; i += 500) {
    await trx
      .deleteFrom('blobs')
      .where('sha256', 'in', all.slice(i, i + 500))
      .where((w) =>
        w.and([
          w.not(
            w.exists(
              w
                .selectFrom('version_files as v')
                .select(sql.lit(1).as('one'))
                .whereRef('v.sha256', '=', 'blobs.sha256'),
            ),
          ),
          w.not(
            w.exists(
              w
                .selectFrom('deployment_files as d')
                .select(sql.lit(1).as('one'))
                .whereRef('d.sha256', '=', 'blobs.sha256'),
            ),
          ),
          w.not(
            w.exists(
              w
                .selectFrom('template_files as t')
                .select(sql.lit(1).as('one'))
                .whereRef('t.sha256', '=', 'blobs.sha256'),
            ),
          ),
        ]),
      )
      .execute();
    // The served copies of images (images/copies.ts) go with their blob.
    await trx
      .deleteFrom('image_variants')
      .where('sha256', 'in', all.slice(i, i + 500))
      .where((w) =>
        w.not(
          w.exists(
            w
              .selectFrom('blobs as b')
              .select(sql.lit(1).as('one'))
              .whereRef('b.sha256', '=', 'image_variants.sha256'),
          ),
        ),
      )
      .execute();
  }
}

/** The hashes a project's versions and deployments refer to: what may be left unreferenced once it is deleted. */
export async function projectBlobHashes(db: Executor, orgId: string, projectId: string): Promise<string[]> {
  const versions = await db
    .selectFrom('version_files as f')
    .innerJoin('versions as v', 'v.id', 'f.version_id')
    .select('f.sha256')
    .distinct()
    .where('v.org_id', '=', orgId)
    .where('v.project_id', '=', projectId)
    .execute();
  const deployments = await db
    .selectFrom('deployment_files as f')
    .innerJoin('deployments as d', 'd.id', 'f.deployment_id')
    .select('f.sha256')
    .distinct()
    .where('d.org_id', '=', orgId)
    .where('d.project_id', '=', projectId)
    .execute();
  return [...versions, ...deployments].map((r) => r.sha256);
}

export async function templateBlobHashes(db: Executor, orgId: string, templateId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('template_files')
    .select('sha256')
    .distinct()
    .where('org_id', '=', orgId)
    .where('template_id', '=', templateId)
    .execute();
  return rows.map((r) => r.sha256);
}
