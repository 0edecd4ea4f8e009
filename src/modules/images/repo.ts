// SQL of image copies (migration 028): by the source blob's sha256, like the blobs they come from
// (content-addressed, shared by every organization whose site holds the same bytes).
import type { Executor } from '../../db/executor.ts';

export interface CopyKey {
  sha256: string;
  width: number;
  format: string;
}

export async function readCopy(db: Executor, key: CopyKey): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('image_variants')
    .select('content')
    .where('sha256', '=', key.sha256)
    .where('width', '=', key.width)
    .where('format', '=', key.format)
    .executeTakeFirst();
  return row && Buffer.from(row.content);
}

/**
 * Keeps a copy; one another instance kept first stays (both are the same picture). Not when its
 * blob is gone (deleted while the copy was made): nothing would ever remove it.
 */
export async function keepCopy(db: Executor, key: CopyKey, content: Buffer): Promise<void> {
  const blob = await db
    .selectFrom('blobs')
    .select('sha256')
    .where('sha256', '=', key.sha256)
    .executeTakeFirst();
  if (!blob) return;
  await db
    .insertInto('image_variants')
    .values({
      sha256: key.sha256,
      width: key.width,
      format: key.format,
      content,
      size: content.length,
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.columns(['sha256', 'width', 'format']).doNothing())
    .execute();
}
