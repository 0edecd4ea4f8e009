// A project's files as a zip archive, for plans that allow code export.
import { zipSync, type Zippable } from 'fflate';
import type { Executor } from '../../db/executor.ts';

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
