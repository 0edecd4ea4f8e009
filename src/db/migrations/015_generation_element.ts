// A generation may be aimed at one element the person selected in the builder's preview: the
// provider gets the element's page, selector and HTML with the prompt. Kept as JSON text, read
// only by the worker.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('element', 'text').execute();
}
