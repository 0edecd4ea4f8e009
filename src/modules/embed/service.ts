// Embed sessions: a host product's backend (with an `embed` API key) opens the builder for one of
// its users, who is a client of the organization. A session is a principal of its own
// (access/principal.ts `embedPrincipal`): that client's projects, and the abilities the host gave.
// Its token (`embt_`, the API key format) is shown once; a full or hybrid session's frame
// exchanges it once for a cookie; a headless session's token is a bearer on /api/v1/projects.
import type { Database } from '../../db/index.ts';
import type { Executor } from '../../db/executor.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId, isUuid } from '../../lib/ids.ts';
import { nowIso, toIso } from '../../lib/clock.ts';
import { EMBED_TOKEN_PREFIX, generateApiKey, hashApiKey, isWellFormedApiKey } from '../../lib/keys.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { createHmac } from 'node:crypto';
import { ConflictError, NotAllowedError, invalid, notFound } from '../common/errors.ts';
import { managerOrg, requirePermission } from '../access/access.ts';
import { EMBED_ABILITIES, embedPrincipal, type EmbedAbility, type Principal } from '../access/principal.ts';
import type { ClientsService } from '../clients/service.ts';
import { findClientByEmail, type ClientRow } from '../clients/repo.ts';
import { findDefaultPlanId } from '../plans/repo.ts';
import { requireProject } from '../projects/repo.ts';
import { requireVisibleProject } from '../access/access.ts';
import { normalizeOrigins } from './origins.ts';
import * as repo from './repo.ts';
import type { CreateEmbedSessionBody, EmbedMode, EmbedSession, EmbedTheme } from './schema.ts';

const DEFAULT_TTL_SECONDS = 900;
const DEFAULT_ABILITIES: readonly EmbedAbility[] = ['generate', 'edit'];
/** Ended sessions are kept this long (the dashboard's list, an audit), then removed. */
const KEEP_ENDED_MS = 7 * 24 * 3600 * 1000;

/** A session that is live now, as the ways in use it. */
export interface LiveSession {
  id: string;
  orgId: string;
  clientId: string;
  projectId: string | null;
  mode: EmbedMode;
  abilities: EmbedAbility[];
  allowedOrigins: string[];
  locale: string;
  theme: EmbedTheme;
  expiresAt: string;
  /** What the session acts as. */
  principal: Principal;
}

export interface EmbedSettings {
  publicUrl: string;
}

export class EmbedService {
  constructor(
    private readonly database: Database,
    private readonly clients: ClientsService,
    private readonly settings: EmbedSettings,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** The organization's allowed parent origins (owners, admins, the operator). */
  async origins(principal: Principal): Promise<string[]> {
    return repo.embedOrigins(this.db, managerOrg(principal));
  }

  async setOrigins(principal: Principal, origins: readonly string[]): Promise<string[]> {
    const orgId = managerOrg(principal);
    const list = normalizeOrigins(origins, 'embed_origins');
    await repo.setEmbedOrigins(this.db, orgId, list);
    return list;
  }

  /** Opens a session for the host's user (found or created as a client); the token is in the answer only. */
  async create(principal: Principal, body: CreateEmbedSessionBody): Promise<EmbedSession> {
    requirePermission(principal, 'embed');
    const { orgId } = principal;
    const { user } = body;
    if (user.external_id === undefined && user.email === undefined)
      throw invalid("field 'user': give external_id, email or both");
    if (body.mode === 'hybrid' && body.project_id === undefined)
      throw invalid("field 'project_id': a hybrid session shows one project's preview; name it");
    const allowedOrigins = await this.allowedOrigins(orgId, body);
    const token = generateApiKey(EMBED_TOKEN_PREFIX);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (body.ttl_seconds ?? DEFAULT_TTL_SECONDS) * 1000);
    const abilities = EMBED_ABILITIES.filter((a) => (body.permissions ?? DEFAULT_ABILITIES).includes(a));
    const theme: EmbedTheme = { accent: body.theme?.accent ?? null, mode: body.theme?.mode ?? 'light' };
    const id = newId();
    const keyId = principal.actor.kind === 'api_key' ? principal.actor.keyId : '';
    const client = await this.inTransaction(async (trx) => {
      const found = await this.clientFor(trx, orgId, user);
      if (found.status === 'suspended' || found.status === 'churned')
        throw new NotAllowedError(`This user's client account is ${found.status}`);
      if (body.project_id !== undefined) {
        const project = await requireProject(trx, orgId, body.project_id);
        requireVisibleProject({ ...principal, clientId: found.id }, project);
      }
      await repo.pruneEnded(trx, orgId, new Date(now.getTime() - KEEP_ENDED_MS).toISOString());
      await repo.insertSession(trx, {
        id,
        org_id: orgId,
        client_id: found.id,
        project_id: body.project_id ?? null,
        key_id: keyId,
        mode: body.mode,
        permissions: abilities.join(','),
        allowed_origins: JSON.stringify(allowedOrigins),
        locale: body.locale ?? 'en',
        theme: JSON.stringify(theme),
        token_hash: hashApiKey(token),
        cookie_hash: null,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        exchanged_at: null,
        revoked_at: null,
      });
      return found;
    });
    const base = this.settings.publicUrl;
    const projectId = body.project_id ?? null;
    return {
      id,
      token,
      expires_at: expiresAt.toISOString(),
      mode: body.mode,
      client_id: client.id,
      project_id: projectId,
      permissions: abilities,
      allowed_origins: allowedOrigins,
      frame_url: `${base}/embed/s/${id}`,
      preview_url: projectId ? `${base}/embed/projects/${projectId}/preview?session=${id}` : null,
    };
  }

  /** Revokes a session of the caller's organization (the embed key, or an owner in the dashboard). */
  async revoke(principal: Principal, id: string): Promise<void> {
    if (principal.actor.kind !== 'api_key' || !principal.permissions.includes('embed')) managerOrg(principal);
    if (!isUuid(id) || !(await repo.revoke(this.db, principal.orgId, id, nowIso())))
      throw notFound('Embed session');
  }

  /** The sessions live now, newest first (the dashboard's Embedding page). */
  async listActive(principal: Principal, limit = 100) {
    const rows = await repo.listActive(this.db, managerOrg(principal), nowIso(), limit);
    return rows.map((r) => ({
      ...r,
      permissions: r.permissions.split(',').filter(Boolean),
      created_at: toIso(r.created_at),
      expires_at: toIso(r.expires_at),
      exchanged_at: toIso(r.exchanged_at),
    }));
  }

  /** A headless session's bearer token, as the REST API takes it; undefined unless live. */
  async authenticate(token: string): Promise<LiveSession | undefined> {
    if (!isWellFormedApiKey(token, EMBED_TOKEN_PREFIX)) return undefined;
    return toLive(await repo.findByTokenHash(this.db, hashApiKey(token)));
  }

  /**
   * The session of frame `frameId`'s cookie, as the embed pages take it; undefined unless it is
   * live and was exchanged for that frame (a cookie cannot be carried to another frame's pages).
   */
  async resolveCookie(secret: string, frameId: string): Promise<LiveSession | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
    const row = await repo.findByCookieHash(this.db, hashToken(secret));
    return row?.frame_id === frameId.toLowerCase() ? toLive(row) : undefined;
  }

  /** The origins that may frame session `id` now; undefined when it is unknown or over. */
  async frameOrigins(id: string): Promise<string[] | undefined> {
    if (!isUuid(id)) return undefined;
    const live = toLive(await repo.findById(this.db, id.toLowerCase()));
    return live && live.mode !== 'headless' ? live.allowedOrigins : undefined;
  }

  /** The origins frame `id` was opened for, live or not: its "session ended" page may show there. */
  async endedFrameOrigins(id: string): Promise<string[]> {
    const row = isUuid(id) ? await repo.findById(this.db, id.toLowerCase()) : undefined;
    return row && row.mode !== 'headless' ? (JSON.parse(row.allowed_origins) as string[]) : [];
  }

  /**
   * A frame's exchange of a token, sent by a page of `origin`, for the cookie's secret (each token
   * once). `frameId` is the session the frame was opened for: the token is that session's, or a
   * newer one of the same user (the host's refresh before expiry). Refused when the token is
   * unknown, headless, over or exchanged before, or `origin` is not one of its allowed origins.
   */
  async exchange(
    frameId: string,
    token: string,
    origin: string,
  ): Promise<{ secret: string; session: LiveSession }> {
    const refused = () => new NotAllowedError('This embed session cannot be opened here');
    if (!isWellFormedApiKey(token, EMBED_TOKEN_PREFIX) || !isUuid(frameId)) throw refused();
    const session = toLive(await repo.findByTokenHash(this.db, hashApiKey(token)));
    if (!session || session.mode === 'headless') throw refused();
    if (!session.allowedOrigins.includes(origin)) throw refused();
    const frame = frameId.toLowerCase();
    if (session.id !== frame) {
      const opened = await repo.findById(this.db, frame);
      if (opened?.org_id !== session.orgId || opened.client_id !== session.clientId) throw refused();
    }
    const secret = newToken();
    const cookie = { frameId: frame, cookieHash: hashToken(secret) };
    if (!(await repo.exchange(this.db, session.id, cookie, nowIso()))) throw refused();
    return { secret, session };
  }

  private async allowedOrigins(orgId: string, body: CreateEmbedSessionBody): Promise<string[]> {
    const own = await repo.embedOrigins(this.db, orgId);
    if (body.mode === 'headless') return normalizeOrigins(body.allowed_origins ?? [], 'allowed_origins');
    if (own.length === 0)
      throw invalid(
        "field 'allowed_origins': the organization has no embed origins yet (Settings → Embedding, or `sitewright org update --embed-origins`)",
      );
    if (body.allowed_origins === undefined) return own;
    const asked = normalizeOrigins(body.allowed_origins, 'allowed_origins');
    const stranger = asked.find((o) => !own.includes(o));
    if (stranger !== undefined)
      throw invalid(`field 'allowed_origins': ${stranger} is not one of the organization's embed origins`);
    if (asked.length === 0) throw invalid("field 'allowed_origins': name at least one origin");
    return asked;
  }

  /** The client of `user`: by external id, else by email (linked from now on), else a new one. */
  private async clientFor(
    trx: Executor,
    orgId: string,
    user: CreateEmbedSessionBody['user'],
  ): Promise<ClientRow> {
    const { external_id: externalId, email } = user;
    if (externalId !== undefined) {
      const linked = await repo.findClientByExternalId(trx, orgId, externalId);
      if (linked) return linked;
    }
    if (email !== undefined) {
      const byEmail = await findClientByEmail(trx, orgId, email);
      if (byEmail) {
        if (externalId === undefined) return byEmail;
        if (byEmail.external_id !== null)
          throw new ConflictError(
            `field 'user.email': the client with email '${email}' belongs to another external_id`,
          );
        if (!(await repo.linkExternalId(trx, orgId, byEmail.id, externalId)))
          throw new ConflictError(
            `field 'user.email': the client with email '${email}' belongs to another external_id`,
          );
        return { ...byEmail, external_id: externalId };
      }
    }
    if (email === undefined)
      throw invalid(
        `field 'user.email': no client has external_id '${externalId}'; give an email to create one`,
      );
    const planId = await findDefaultPlanId(trx, orgId);
    const client = await this.clients.createIn(
      trx,
      orgId,
      { email, ...(user.name ? { name: user.name } : {}), ...(planId ? { plan_id: planId } : {}) },
      { status: 'active', userId: newId(), ...(externalId === undefined ? {} : { externalId }) },
    );
    const row = await findClientByEmail(trx, orgId, client.email);
    if (!row) throw new Error('the client just created is missing');
    return row;
  }

  /** Runs `work` in a transaction; two creates racing for one new client: the loser retries once. */
  private async inTransaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    try {
      return await this.database.transaction(work);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return this.database.transaction(work);
    }
  }
}

/** The CSRF token of an embed page's forms: bound to the session's cookie, so no other page has it. */
export function embedFormToken(secret: string): string {
  return createHmac('sha256', secret).update('sitewright embed forms').digest('base64url');
}

function toLive(row: repo.LiveSessionRow | undefined): LiveSession | undefined {
  if (!row || row.revoked_at !== null) return undefined;
  if (Date.parse(toIso(row.expires_at)) <= Date.now()) return undefined;
  if (row.client_status === 'suspended' || row.client_status === 'churned') return undefined;
  // Revoking the embed key ends what it opened.
  if (row.key_revoked_at !== null) return undefined;
  const abilities = row.permissions.split(',').filter(Boolean) as EmbedAbility[];
  const session = {
    id: row.id,
    orgId: row.org_id,
    clientId: row.client_id,
    projectId: row.project_id,
    mode: row.mode as EmbedMode,
    abilities,
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
    locale: row.locale,
    theme: JSON.parse(row.theme) as EmbedTheme,
    expiresAt: toIso(row.expires_at),
  };
  return {
    ...session,
    principal: embedPrincipal({
      id: row.id,
      orgId: row.org_id,
      clientId: row.client_id,
      keyId: row.key_id,
      abilities,
      projectId: row.project_id,
    }),
  };
}
