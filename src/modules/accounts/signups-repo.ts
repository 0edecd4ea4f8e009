// SQL for sign-ups waiting for their email to be confirmed. One is addressed by the hash of its
// confirmation token (the link is followed before any account exists); a build-link sign-up
// carries its organization, and those waiting are counted per organization.
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/executor.ts';
import type { SignupsTable } from '../../db/schema.ts';

export type SignUpRow = Selectable<SignupsTable>;

/** Deletes every sign-up that expired at or before `now`. */
export async function deleteExpiredSignUps(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('signups').where('expires_at', '<=', now).execute();
}

/** The build-link sign-ups of the organization waiting for their confirmation. */
export async function countSignUpsOfOrg(db: Executor, orgId: string): Promise<number> {
  const waiting = await db
    .selectFrom('signups')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return Number(waiting?.n ?? 0);
}

export async function insertSignUp(db: Executor, row: Insertable<SignupsTable>): Promise<void> {
  await db.insertInto('signups').values(row).execute();
}

/** A sign-up by the hash of its confirmation token (expired or not). */
export function findSignUp(db: Executor, tokenHash: string): Promise<SignUpRow | undefined> {
  return db.selectFrom('signups').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Deletes the sign-up; false when there was none (it was already spent). */
export async function deleteSignUp(db: Executor, tokenHash: string): Promise<boolean> {
  const result = await db.deleteFrom('signups').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
