// SQL for organizations and their API keys. Organizations are the tenants themselves, so their
// statements stand above the organization id; a key is revoked by its id (the CLI) and found by
// its hash (authentication, before any organization is known). Keys are listed per organization.
import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { prepareQuery } from '../../db/prepared.ts';
import type { ApiKeysTable, OrganizationsTable } from '../../db/schema.ts';
import { isUuid } from '../../lib/ids.ts';
import { nowIso } from '../../lib/clock.ts';

export type OrgRow = Selectable<OrganizationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

export function findOrgByName(db: Executor, name: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('organizations').select('id').where('name', '=', name).executeTakeFirst();
}

/** By id when `idOrName` is a UUID (of any case), else by exact name. */
export function findOrg(db: Executor, idOrName: string): Promise<OrgRow | undefined> {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where((eb) => (isUuid(idOrName) ? eb('id', '=', idOrName.toLowerCase()) : eb('name', '=', idOrName)))
    .executeTakeFirst();
}

export function listOrgs(db: Executor): Promise<OrgRow[]> {
  return db
    .selectFrom('organizations')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function insertOrg(db: Executor, row: Insertable<OrganizationsTable>): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function insertApiKey(db: Executor, row: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export function listApiKeys(db: Executor, orgId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes the key unless it already is (the first revocation time stays); returns it as it is now. */
export async function revokeApiKey(db: Executor, keyId: string): Promise<ApiKeyRow | undefined> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: nowIso() })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .execute();
  return db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
}

export async function touchApiKey(db: Executor, keyId: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: nowIso() }).where('id', '=', keyId).execute();
}

export type ActiveKeyRow = Pick<ApiKeyRow, 'id' | 'org_id' | 'permissions' | 'last_used_at'>;

/** An unrevoked key by its hash: read on every API request, so prepared once (see db/prepared.ts). */
export function prepareFindActiveKey(database: Database) {
  return prepareQuery<{ hash: string }, ActiveKeyRow>(database, (p) =>
    database.db
      .selectFrom('api_keys')
      .select(['id', 'org_id', 'permissions', 'last_used_at'])
      .where('key_hash', '=', p('hash'))
      .where('revoked_at', 'is', null),
  );
}

export async function countMembers(db: Executor, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function renameOrg(db: Executor, orgId: string, name: string): Promise<void> {
  await db.updateTable('organizations').set({ name }).where('id', '=', orgId).execute();
}

/** The organization's name, if it exists. */
export async function findOrgName(db: Executor, orgId: string): Promise<string | undefined> {
  const org = await db.selectFrom('organizations').select('name').where('id', '=', orgId).executeTakeFirst();
  return org?.name;
}

/** The organization's name; throws (NoResultError) when there is no such organization. */
export async function orgName(db: Executor, orgId: string): Promise<string> {
  const org = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
  return org.name;
}
