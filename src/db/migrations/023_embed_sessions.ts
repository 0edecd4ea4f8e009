// The embeddable builder: an organization's allowed parent origins, a client's id in the host
// product (`external_id`, unique per organization), and the embed sessions a host's backend
// creates. A session's token (`embt_`) and the cookie it is exchanged for are stored as hashes.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .alterTable('organizations')
    .addColumn('embed_origins', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('clients').addColumn('external_id', 'text').execute();
  await db.schema
    .createIndex('clients_org_external_id')
    .on('clients')
    .columns(['org_id', 'external_id'])
    .unique()
    .where(sql.ref('external_id'), 'is not', null)
    .execute();
  await db.schema
    .createTable('embed_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('project_id', 'text')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('allowed_origins', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('theme', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('cookie_hash', 'text', (c) => c.unique())
    // The frame (the session its page was opened for) whose cookie this session's is: the same
    // session, or an older one of the same user it took over from (a refresh before expiry).
    .addColumn('frame_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('exchanged_at', ts)
    .addColumn('revoked_at', ts)
    .execute();
  await db.schema
    .createIndex('embed_sessions_org_created')
    .on('embed_sessions')
    .columns(['org_id', 'created_at'])
    .execute();
  await db.schema.createIndex('embed_sessions_client').on('embed_sessions').column('client_id').execute();
}
