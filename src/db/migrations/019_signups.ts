// Sign-ups waiting for their email to be confirmed: an open sign-up (a new organization) or a
// build-link sign-up (a new client of the link's organization, with the website it asked for).
// Nothing becomes an account until the mailed link is followed, so nobody can take someone
// else's email (and block that person's invitation to an agency's portal). Kept 24 hours; only
// the SHA-256 of the link's token is stored. Build-link visits are no longer kept for signed-out
// visitors (their request travels in the page's forms), so the pending ones go.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema
    .createTable('signups')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_lower', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('org_name', 'text')
    .addColumn('org_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('prompt', 'text')
    .addColumn('model', 'text')
    .addColumn('template_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signups_email').on('signups').column('email_lower').execute();
  await db.schema.createIndex('signups_org').on('signups').column('org_id').execute();
  await db.schema.createIndex('signups_expiry').on('signups').column('expires_at').execute();
  await sql`delete from build_requests where kind = 'pending'`.execute(db);
}
