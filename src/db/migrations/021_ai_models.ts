// The AI model an organization connects itself (Settings → AI model): an OpenAI-compatible
// endpoint, the model to call and its key, sealed with the installation's secrets key
// (lib/secrets.ts) so that a copy of the database alone does not give it away. One per
// organization; `use_by_default` makes new generations use it instead of the templates.
import type { Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  const bool = engine === 'postgres' ? 'boolean' : 'integer';
  await db.schema
    .createTable('ai_models')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('base_url', 'text')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('api_key_sealed', 'text')
    .addColumn('api_key_hint', 'text')
    .addColumn('use_by_default', bool, (c) => c.notNull())
    .addColumn('checked_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}
