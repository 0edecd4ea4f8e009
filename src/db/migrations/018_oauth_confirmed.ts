// A grant counts only once its authorization code is redeemed: until then the person's consent
// is pending (the application may never have received the code), it is not listed under
// "Connected apps", and it is deleted when its code expires unused.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Engine } from '../engine.ts';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const ts = engine === 'postgres' ? 'timestamptz' : 'text';
  await db.schema.alterTable('oauth_grants').addColumn('confirmed_at', ts).execute();
  // Grants made before this change issued their tokens already (or never will): keep those
  // that have tokens, as they were.
  await sql`update oauth_grants set confirmed_at = created_at
    where exists (select 1 from oauth_tokens t where t.grant_id = oauth_grants.id)`.execute(db);
  await sql`delete from oauth_grants where confirmed_at is null`.execute(db);
}
