// Build links: what a `/build` visit asked for, kept on the server while the visitor signs up or
// signs in (a prompt of up to 50,000 characters does not survive a URL), and links made through
// the API whose prompt is too long for one. Only the SHA-256 of each link's token is kept.
// Organizations choose whether their build link lets visitors sign up as new clients.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  const bool = engine === 'postgres' ? 'boolean' : 'integer';
  const no = engine === 'postgres' ? sql`false` : sql`0`;
  await db.schema
    .alterTable('organizations')
    .addColumn('build_link_signups', bool, (c) => c.notNull().defaultTo(no))
    .execute();
  await db.schema
    .createTable('build_requests')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('model', 'text')
    .addColumn('template_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('build_requests_expiry').on('build_requests').column('expires_at').execute();
}
