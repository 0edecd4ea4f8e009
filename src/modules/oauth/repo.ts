// SQL for the OAuth authorization server: clients (registered, or fetched metadata documents),
// grants, codes and tokens. None is an organization's record addressed through it: a client is
// the installation's, named by its client_id; a grant is a user's consent, found by the hash of a
// code or token its application presents, by its id, or by its user (like a session). The
// organization a grant acts in is read from the grant, never chosen by the caller.
import type { Insertable, Selectable } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { prepareQuery } from '../../db/prepared.ts';
import type {
  OAuthClientsTable,
  OAuthCodesTable,
  OAuthGrantsTable,
  OAuthTokensTable,
} from '../../db/schema.ts';

export type OAuthClientRow = Selectable<OAuthClientsTable>;

// --- Clients -------------------------------------------------------------------------------

export function findClient(db: Executor, clientId: string): Promise<OAuthClientRow | undefined> {
  return db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/** Whether the client is (still) registered. */
export async function clientExists(db: Executor, clientId: string): Promise<boolean> {
  const client = await db
    .selectFrom('oauth_clients')
    .select('client_id')
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return client !== undefined;
}

export async function insertClient(db: Executor, row: Insertable<OAuthClientsTable>): Promise<void> {
  await db.insertInto('oauth_clients').values(row).execute();
}

/** Refreshes a metadata-document client in place (its grants stay); false when there is none yet. */
export async function refreshClient(
  db: Executor,
  clientId: string,
  changes: { name: string; redirect_uris: string; client_uri: string | null; fetched_at: string },
): Promise<boolean> {
  const updated = await db
    .updateTable('oauth_clients')
    .set(changes)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) !== 0;
}

/**
 * Deletes at most `limit` registered clients created before `cutoff` that no grant names, over
 * the (kind, created_at) index.
 */
export async function deleteUnusedClients(db: Executor, cutoff: string, limit: number): Promise<void> {
  const unused = db
    .selectFrom('oauth_clients as c')
    .select('c.client_id')
    .where('c.kind', '=', 'dcr')
    .where('c.created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('oauth_grants as g').select('g.id').whereRef('g.client_id', '=', 'c.client_id'))),
    )
    .limit(limit);
  await db.deleteFrom('oauth_clients').where('client_id', 'in', unused).execute();
}

// --- Grants and codes ----------------------------------------------------------------------

/** Deletes the pending grants (code never redeemed) created before `before`. */
export async function deletePendingGrants(db: Executor, before: string): Promise<void> {
  await db
    .deleteFrom('oauth_grants')
    .where('confirmed_at', 'is', null)
    .where('created_at', '<', before)
    .execute();
}

export async function insertGrant(db: Executor, row: Insertable<OAuthGrantsTable>): Promise<void> {
  await db.insertInto('oauth_grants').values(row).execute();
}

export async function insertCode(db: Executor, row: Insertable<OAuthCodesTable>): Promise<void> {
  await db.insertInto('oauth_codes').values(row).execute();
}

/** A code, by its hash, with what its grant says. */
export function findCode(db: Executor, codeHash: string) {
  return db
    .selectFrom('oauth_codes as c')
    .innerJoin('oauth_grants as g', 'g.id', 'c.grant_id')
    .select([
      'c.code_hash',
      'c.redirect_uri',
      'c.code_challenge',
      'c.expires_at',
      'c.used_at',
      'g.id as grant_id',
      'g.client_id',
      'g.resource',
      'g.revoked_at',
    ])
    .where('c.code_hash', '=', codeHash)
    .executeTakeFirst();
}

/** Marks the code used; false when it already was. */
export async function useCode(db: Executor, codeHash: string, now: string): Promise<boolean> {
  const used = await db
    .updateTable('oauth_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** The grant's code was redeemed: it counts from now on (unless it already did). */
export async function confirmGrant(db: Executor, grantId: string, now: string): Promise<void> {
  await db
    .updateTable('oauth_grants')
    .set({ confirmed_at: now })
    .where('id', '=', grantId)
    .where('confirmed_at', 'is', null)
    .execute();
}

export async function revokeGrant(db: Executor, grantId: string, now: string): Promise<void> {
  await db
    .updateTable('oauth_grants')
    .set({ revoked_at: now })
    .where('id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Whether the user has a confirmed, unrevoked grant for the application. */
export async function hasGrant(db: Executor, userId: string, clientId: string): Promise<boolean> {
  const row = await db
    .selectFrom('oauth_grants')
    .select('id')
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The user's confirmed, unrevoked grants with their application's and organization's names, newest first. */
export function listGrantsOfUser(db: Executor, userId: string) {
  return db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as c', 'c.client_id', 'g.client_id')
    .innerJoin('organizations as o', 'o.id', 'g.org_id')
    .select([
      'g.id',
      'c.name as client_name',
      'g.client_id',
      'g.org_id',
      'o.name as org_name',
      'g.created_at',
    ])
    .where('g.user_id', '=', userId)
    .where('g.revoked_at', 'is', null)
    .where('g.confirmed_at', 'is not', null)
    .orderBy('g.created_at', 'desc')
    .limit(200)
    .execute();
}

/** Revokes a grant of the user; false when it is not theirs (or already revoked). */
export async function revokeGrantOfUser(
  db: Executor,
  userId: string,
  grantId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('oauth_grants')
    .set({ revoked_at: now })
    .where('id', '=', grantId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// --- Tokens --------------------------------------------------------------------------------

export async function insertTokens(db: Executor, rows: Insertable<OAuthTokensTable>[]): Promise<void> {
  await db.insertInto('oauth_tokens').values(rows).execute();
}

/** A refresh token, by its hash, with what its grant says. */
export function findRefreshToken(db: Executor, tokenHash: string) {
  return db
    .selectFrom('oauth_tokens as t')
    .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
    .select([
      't.token_hash',
      't.used_at',
      't.expires_at',
      'g.id as grant_id',
      'g.client_id',
      'g.resource',
      'g.revoked_at',
    ])
    .where('t.token_hash', '=', tokenHash)
    .where('t.kind', '=', 'refresh')
    .executeTakeFirst();
}

/** Marks the token used; false when it already was. */
export async function useToken(db: Executor, tokenHash: string, now: string): Promise<boolean> {
  const used = await db
    .updateTable('oauth_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** The grant of an access or refresh token, by the token's hash. */
export function findTokenGrant(db: Executor, tokenHash: string) {
  return db
    .selectFrom('oauth_tokens as t')
    .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
    .select(['g.id', 'g.client_id'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export interface AccessRow {
  expires_at: string | Date;
  grant_id: string;
  user_id: string;
  org_id: string;
  org_client_id: string | null;
  client_id: string;
  resource: string;
  revoked_at: string | Date | null;
  member: string | null;
  client_status: string | null;
}

/**
 * The check of an access token, by its hash: the token, its grant, and whether its user is still
 * a member (or still the client account it was). It runs on every call an access token makes, so
 * it is prepared once (see db/prepared.ts).
 */
export function prepareAccessCheck(database: Database) {
  const { db } = database;
  return prepareQuery<{ hash: string }, AccessRow>(database, (p) =>
    db
      .selectFrom('oauth_tokens as t')
      .innerJoin('oauth_grants as g', 'g.id', 't.grant_id')
      .leftJoin('memberships as m', (join) =>
        join.onRef('m.user_id', '=', 'g.user_id').onRef('m.org_id', '=', 'g.org_id'),
      )
      .leftJoin('clients as c', (join) =>
        join
          .onRef('c.id', '=', 'g.org_client_id')
          .onRef('c.org_id', '=', 'g.org_id')
          .onRef('c.user_id', '=', 'g.user_id'),
      )
      .select([
        't.expires_at',
        'g.id as grant_id',
        'g.user_id',
        'g.org_id',
        'g.org_client_id',
        'g.client_id',
        'g.resource',
        'g.revoked_at',
        'm.user_id as member',
        'c.status as client_status',
      ])
      .where('t.token_hash', '=', p('hash'))
      .where('t.kind', '=', 'access'),
  );
}
