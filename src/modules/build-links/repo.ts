// SQL for build links: an organization's sign-up switch and name (the organization is the tenant
// itself, addressed by its id), and the links kept because their prompt did not fit in a URL,
// addressed by the hash of their token (opened before any organization is known; a kept link
// may name none).
import type { Insertable, Selectable } from 'kysely';
import { bool, type Executor } from '../../db/executor.ts';
import type { BuildRequestsTable } from '../../db/schema.ts';

export type BuildRequestRow = Selectable<BuildRequestsTable>;

/** Whether the organization lets visitors of its build link sign up as new clients. */
export async function signUpsAllowed(db: Executor, orgId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('build_link_signups')
    .where('id', '=', orgId)
    .executeTakeFirst();
  return Boolean(row && bool(row.build_link_signups));
}

export async function setSignUpsAllowed(db: Executor, orgId: string, allowed: boolean): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ build_link_signups: allowed })
    .where('id', '=', orgId)
    .execute();
}

export async function orgExists(db: Executor, orgId: string): Promise<boolean> {
  return Boolean(
    await db.selectFrom('organizations').select('id').where('id', '=', orgId).executeTakeFirst(),
  );
}

/** Deletes every kept request that expired at or before `now`. */
export async function deleteExpiredRequests(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('build_requests').where('expires_at', '<=', now).execute();
}

export async function insertRequest(db: Executor, row: Insertable<BuildRequestsTable>): Promise<void> {
  await db.insertInto('build_requests').values(row).execute();
}

/** A link kept through the API, by the hash of its token (expired or not). */
export function findLinkRequest(db: Executor, tokenHash: string): Promise<BuildRequestRow | undefined> {
  return db
    .selectFrom('build_requests')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', 'link')
    .executeTakeFirst();
}
