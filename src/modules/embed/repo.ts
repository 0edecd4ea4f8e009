// SQL for embed sessions, an organization's embed origins and a client's external id. A session is
// created and listed per organization; it is found by its token's hash (a headless request, the
// frame's exchange) or its cookie's hash (the frame's requests), before any organization is known,
// and by its id for the frame's page (which shows nothing of it but whether it may be framed).
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/executor.ts';
import type { EmbedSessionsTable } from '../../db/schema.ts';
import type { ClientRow } from '../clients/repo.ts';

export type SessionRow = Selectable<EmbedSessionsTable>;
/** A session with the status of its client (a suspended or churned client's sessions stop). */
export type LiveSessionRow = SessionRow & {
  client_status: string;
  key_revoked_at: string | Date | null;
};

export async function embedOrigins(db: Executor, orgId: string): Promise<string[]> {
  const row = await db
    .selectFrom('organizations')
    .select('embed_origins')
    .where('id', '=', orgId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.embed_origins) as string[]) : [];
}

export async function setEmbedOrigins(db: Executor, orgId: string, origins: string[]): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ embed_origins: JSON.stringify(origins) })
    .where('id', '=', orgId)
    .execute();
}

export function findClientByExternalId(
  db: Executor,
  orgId: string,
  externalId: string,
): Promise<ClientRow | undefined> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

/** Links a client not linked yet to `externalId`; false when another link came first. */
export async function linkExternalId(
  db: Executor,
  orgId: string,
  clientId: string,
  externalId: string,
): Promise<boolean> {
  const result = await db
    .updateTable('clients')
    .set({ external_id: externalId })
    .where('org_id', '=', orgId)
    .where('id', '=', clientId)
    .where('external_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertSession(db: Executor, row: Insertable<EmbedSessionsTable>): Promise<void> {
  await db.insertInto('embed_sessions').values(row).execute();
}

/** With what decides whether it is live besides itself: its client's status, its key's revocation. */
function live(db: Executor) {
  return db
    .selectFrom('embed_sessions')
    .innerJoin('clients', 'clients.id', 'embed_sessions.client_id')
    .leftJoin('api_keys', 'api_keys.id', 'embed_sessions.key_id')
    .selectAll('embed_sessions')
    .select(['clients.status as client_status', 'api_keys.revoked_at as key_revoked_at']);
}

export function findByTokenHash(db: Executor, hash: string): Promise<LiveSessionRow | undefined> {
  return live(db).where('embed_sessions.token_hash', '=', hash).executeTakeFirst();
}

export function findByCookieHash(db: Executor, hash: string): Promise<LiveSessionRow | undefined> {
  return live(db).where('embed_sessions.cookie_hash', '=', hash).executeTakeFirst();
}

export function findById(db: Executor, id: string): Promise<LiveSessionRow | undefined> {
  return live(db).where('embed_sessions.id', '=', id).executeTakeFirst();
}

/** Sets the cookie of a session not exchanged before, for frame `frameId`; false when another exchange came first. */
export async function exchange(
  db: Executor,
  id: string,
  frame: { frameId: string; cookieHash: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('embed_sessions')
    .set({ cookie_hash: frame.cookieHash, frame_id: frame.frameId, exchanged_at: now })
    .where('id', '=', id)
    .where('exchanged_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes session `id` of `orgId` (the first revocation's time stays); false: no such session. */
export async function revoke(db: Executor, orgId: string, id: string, now: string): Promise<boolean> {
  await db
    .updateTable('embed_sessions')
    .set({ revoked_at: now })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  const found = await db
    .selectFrom('embed_sessions')
    .select('id')
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return found !== undefined;
}

export async function revokeClientSessions(
  db: Executor,
  orgId: string,
  clientId: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('embed_sessions')
    .set({ revoked_at: now })
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Sessions not revoked and not expired at `now`, newest first, with their client's email. */
export function listActive(db: Executor, orgId: string, now: string, limit: number) {
  return db
    .selectFrom('embed_sessions')
    .innerJoin('clients', 'clients.id', 'embed_sessions.client_id')
    .select([
      'embed_sessions.id',
      'embed_sessions.mode',
      'embed_sessions.client_id',
      'embed_sessions.project_id',
      'embed_sessions.permissions',
      'embed_sessions.created_at',
      'embed_sessions.expires_at',
      'embed_sessions.exchanged_at',
      'clients.email as client_email',
      'clients.external_id as client_external_id',
    ])
    .where('embed_sessions.org_id', '=', orgId)
    .where('embed_sessions.revoked_at', 'is', null)
    .where('embed_sessions.expires_at', '>', now)
    .orderBy('embed_sessions.created_at', 'desc')
    .orderBy('embed_sessions.id', 'desc')
    .limit(limit)
    .execute();
}

/** Sessions of `orgId` that ended (expired or revoked) before `before`: nothing needs them. */
export async function pruneEnded(db: Executor, orgId: string, before: string): Promise<void> {
  await db
    .deleteFrom('embed_sessions')
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .execute();
}
