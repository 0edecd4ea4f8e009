// Registered OAuth clients that no grant names are deleted a day after registration, a few at
// each new registration (modules/oauth/clients.ts): these indexes keep that sweep to the expired
// rows alone, whatever the table holds. The grants' index also serves the cascade when a client
// is deleted (PostgreSQL does not index a foreign key by itself).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('oauth_clients_kind_created')
    .on('oauth_clients')
    .columns(['kind', 'created_at'])
    .execute();
  await db.schema.createIndex('oauth_grants_client').on('oauth_grants').column('client_id').execute();
}
