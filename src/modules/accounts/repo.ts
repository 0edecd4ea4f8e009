// SQL for people: users, memberships, sessions, invitations, password resets and portal clients'
// accounts. Functions on an organization's records take its id; a user's own records (sessions,
// resets) are addressed by the user or by the hash of the token that names them, and an
// invitation link by the hash of its token (opened before any organization is known).
// Sign-ups waiting for their confirmation are in signups-repo.ts.
import type { Insertable, Selectable } from 'kysely';
import { forWrite } from '../../db/locks.ts';
import type { Executor } from '../../db/executor.ts';
import type { InvitationsTable, SessionsTable, UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;
export type InvitationRow = Selectable<InvitationsTable>;

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email_lower', '=', email.toLowerCase()).executeTakeFirst();
}

export function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Executor, row: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function setPassword(
  db: Executor,
  userId: string,
  passwordHash: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export interface MembershipRow {
  org_id: string;
  org_name: string;
  role: string;
}

export function membershipsOfUser(db: Executor, userId: string): Promise<MembershipRow[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
    .select(['memberships.org_id', 'organizations.name as org_name', 'memberships.role'])
    .where('memberships.user_id', '=', userId)
    .orderBy('organizations.name')
    .execute();
}

export function findMembership(db: Executor, orgId: string, userId: string) {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function listMembers(db: Executor, orgId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.email', 'users.name', 'memberships.role', 'memberships.created_at'])
    .where('memberships.org_id', '=', orgId)
    .orderBy('memberships.created_at')
    .execute();
}

export async function insertMembership(
  db: Executor,
  row: { org_id: string; user_id: string; role: string; created_at: string },
): Promise<void> {
  await db.insertInto('memberships').values(row).execute();
}

export async function setRole(db: Executor, orgId: string, userId: string, role: string): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ role })
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMembership(db: Executor, orgId: string, userId: string): Promise<void> {
  await db.deleteFrom('memberships').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
}

/** The organization's owners, locked for writing (db/locks.ts) so two demotions cannot both leave one. */
export function lockOwners(trx: Executor, orgId: string) {
  const query = trx
    .selectFrom('memberships')
    .select('user_id')
    .where('org_id', '=', orgId)
    .where('role', '=', 'owner');
  return forWrite(trx, query).execute();
}

export async function insertSession(db: Executor, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export function findSession(db: Executor, idHash: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id_hash',
      'sessions.org_id',
      'sessions.expires_at',
      'users.id as user_id',
      'users.email',
      'users.name',
    ])
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();
}

export async function setSessionOrg(db: Executor, idHash: string, orgId: string | null): Promise<void> {
  await db.updateTable('sessions').set({ org_id: orgId }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Executor, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteSessionsOfUser(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Ends every OAuth grant of the user (its access and refresh tokens stop working at once). */
export async function revokeGrantsOfUser(db: Executor, userId: string, now: string): Promise<void> {
  await db
    .updateTable('oauth_grants')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function insertInvitation(db: Executor, row: Insertable<InvitationsTable>): Promise<void> {
  await db.insertInto('invitations').values(row).execute();
}

export function findInvitation(db: Executor, tokenHash: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function markInvitationAccepted(db: Executor, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ accepted_at: now })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A member invitation of the organization that was not accepted yet (expired or not). */
export function findUnacceptedMemberInvitation(db: Executor, orgId: string, id: string) {
  return db
    .selectFrom('invitations')
    .select(['email', 'role'])
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('kind', '=', 'member')
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
}

/** The client's portal invitation not accepted yet, newest first (expired or not). */
export function findUnacceptedClientInvitation(db: Executor, orgId: string, clientId: string) {
  return db
    .selectFrom('invitations')
    .select(['created_at', 'expires_at'])
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .where('kind', '=', 'client')
    .where('accepted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** Deletes the client's portal invitations not accepted yet. */
export async function deleteUnacceptedClientInvitations(
  db: Executor,
  orgId: string,
  clientId: string,
): Promise<void> {
  await db
    .deleteFrom('invitations')
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .where('kind', '=', 'client')
    .where('accepted_at', 'is', null)
    .execute();
}

export function pendingMemberInvitations(db: Executor, orgId: string, now: string) {
  return db
    .selectFrom('invitations')
    .select(['id', 'email', 'role', 'created_at', 'expires_at'])
    .where('org_id', '=', orgId)
    .where('kind', '=', 'member')
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function deleteInvitation(db: Executor, orgId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('invitations')
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function insertPasswordReset(
  db: Executor,
  row: { token_hash: string; user_id: string; created_at: string; expires_at: string },
): Promise<void> {
  await db.insertInto('password_resets').values(row).execute();
}

/** A reset link's state, by the hash of its token. */
export function findPasswordReset(db: Executor, tokenHash: string) {
  return db
    .selectFrom('password_resets')
    .select(['used_at', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks the reset used; false when it was already used (or never existed). */
export async function usePasswordReset(
  db: Executor,
  tokenHash: string,
  now: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.used_at !== null || new Date(row.expires_at).getTime() <= Date.parse(now)) return undefined;
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? row.user_id : undefined;
}

/** Spends every unused reset link of the user (a newer one was used, or the password changed). */
export async function usePasswordResetsOfUser(db: Executor, userId: string, now: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** The client (and its organization) whose portal account is this user. */
export function clientOfUser(db: Executor, userId: string) {
  return (
    db
      .selectFrom('clients')
      .innerJoin('organizations', 'organizations.id', 'clients.org_id')
      .select([
        'clients.id',
        'clients.org_id',
        'organizations.name as org_name',
        'clients.status',
        'clients.plan_id',
        'clients.email',
        'clients.name',
      ])
      // Suspended by billing (migration 024): the client still signs in, to its payment page only.
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('billing_holds')
              .select('billing_holds.id')
              .whereRef('billing_holds.org_id', '=', 'clients.org_id')
              .whereRef('billing_holds.client_id', '=', 'clients.id')
              .where('billing_holds.kind', '=', 'suspended'),
          )
          .as('payment_hold'),
      )
      .where('clients.user_id', '=', userId)
      .executeTakeFirst()
  );
}

/** The account id a client of the organization has (or will have, once it accepts its invitation). */
export function findClientUser(db: Executor, orgId: string, clientId: string) {
  return db
    .selectFrom('clients')
    .select('user_id')
    .where('org_id', '=', orgId)
    .where('id', '=', clientId)
    .executeTakeFirst();
}

/** What accepting a portal invitation needs of the client: its account id, email and status. */
export function findClientForPortal(db: Executor, orgId: string, clientId: string) {
  return db
    .selectFrom('clients')
    .select(['user_id', 'email', 'status'])
    .where('org_id', '=', orgId)
    .where('id', '=', clientId)
    .executeTakeFirst();
}
