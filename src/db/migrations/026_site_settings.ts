// Site settings (issue 30): what a project's owner says about the site as a whole, for search
// engines, shared links and form mail. One row per project that has any, kept as one JSON
// document: every field is read and written together, and none is ever queried on its own.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('site_settings')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // The address a deployment's canonical links name (its custom domain or its subdomain, at
  // publish): the edge sends the subdomain's visitors and crawlers on only when they agree.
  await db.schema.alterTable('deployments').addColumn('site_url', 'text').execute();
}
