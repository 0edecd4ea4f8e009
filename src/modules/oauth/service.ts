// The OAuth 2.1 authorization server's rules: authorization requests (PKCE S256 only, the
// resource required and bound to the grant, exact redirect URIs), consent as a grant of a user in
// one organization, one-use codes (10 minutes), opaque tokens stored hashed (access: 1 hour;
// refresh: rotated on every use, and a reused one revokes the whole grant), revocation, and the
// check of an access token, which also ends a grant whose user left the organization or whose
// client account was suspended.
import { createHash } from 'node:crypto';
import type { Database } from '../../db/index.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { newId } from '../../lib/ids.ts';
import {
  OAuthClients,
  OAuthRequestError,
  redirectAllowed,
  type OAuthClient,
  type OAuthErrorKind,
} from './clients.ts';
import * as repo from './repo.ts';

export { OAuthRequestError, type OAuthErrorKind } from './clients.ts';

export const ACCESS_TTL_S = 3_600;
const REFRESH_TTL_MS = 30 * 24 * 3_600_000;
const CODE_TTL_MS = 10 * 60_000;
export const SCOPE = 'mcp';

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  resource: string;
  scope: string;
}

/** Who a valid access token acts as. */
export interface TokenOwner {
  grantId: string;
  userId: string;
  orgId: string;
  /** A client user's grant: only this agency client's projects. */
  orgClientId: string | null;
  clientId: string;
  expiresAt: number;
}

export interface Grant {
  id: string;
  client_name: string;
  client_id: string;
  org_id: string;
  org_name: string;
  created_at: string;
}

export class OAuthService {
  readonly clients: OAuthClients;
  private readonly accessCheck;

  constructor(
    private readonly database: Database,
    readonly issuer: string,
    /** The resources tokens may be issued for (the MCP endpoint). */
    private readonly resources: string[],
    allowPrivate: boolean,
  ) {
    this.clients = new OAuthClients(database, allowPrivate);
    this.accessCheck = repo.prepareAccessCheck(database);
  }

  private get db() {
    return this.database.db;
  }

  /** Checks an authorization request; errors before the redirect URI is known are not redirected. */
  async checkAuthorization(q: Record<string, string | undefined>): Promise<AuthorizationRequest> {
    const client = q.client_id ? await this.clients.find(q.client_id) : undefined;
    if (!client) throw new OAuthRequestError('invalid_client', 'Unknown client_id');
    if (!q.redirect_uri || !redirectAllowed(client, q.redirect_uri))
      throw new OAuthRequestError('invalid_request', 'redirect_uri is not one this client registered');
    const redirectable = (code: OAuthErrorKind, message: string) =>
      Object.assign(new OAuthRequestError(code, message), { redirectUri: q.redirect_uri, state: q.state });
    if (q.response_type !== 'code')
      throw redirectable('unsupported_response_type', 'response_type must be code');
    if (
      !q.code_challenge ||
      q.code_challenge_method !== 'S256' ||
      !/^[A-Za-z0-9_-]{43,128}$/.test(q.code_challenge)
    )
      throw redirectable(
        'invalid_request',
        'PKCE is required: code_challenge with code_challenge_method=S256',
      );
    if (!q.resource) throw redirectable('invalid_target', 'resource is required (RFC 8707)');
    if (!this.resources.includes(q.resource))
      throw redirectable('invalid_target', `resource must be ${this.resources.join(' or ')}`);
    const scope = q.scope?.trim() || SCOPE;
    if (scope.split(/\s+/).some((s) => s !== SCOPE))
      throw redirectable('invalid_scope', `the only scope is ${SCOPE}`);
    return {
      client,
      redirectUri: q.redirect_uri,
      state: q.state,
      codeChallenge: q.code_challenge,
      resource: q.resource,
      scope: SCOPE,
    };
  }

  /**
   * The user consented: a pending grant in that organization and a code for the client's
   * redirect. The grant counts (and shows under "Connected apps") only once the application
   * redeems the code; pending ones whose code expired unused are deleted here.
   */
  async approve(
    request: AuthorizationRequest,
    who: { userId: string; orgId: string; orgClientId: string | null },
  ): Promise<string> {
    const code = newToken();
    const now = new Date();
    await this.database.transaction(async (trx) => {
      const grantId = newId();
      // A registration unused for a day may have been cleaned away since the page was shown.
      if (!(await repo.clientExists(trx, request.client.clientId)))
        throw new OAuthRequestError(
          'invalid_client',
          'Unknown client_id: the application must register again',
        );
      const stale = new Date(now.getTime() - CODE_TTL_MS).toISOString();
      await repo.deletePendingGrants(trx, stale);
      await repo.insertGrant(trx, {
        id: grantId,
        client_id: request.client.clientId,
        user_id: who.userId,
        org_id: who.orgId,
        org_client_id: who.orgClientId,
        scope: request.scope,
        resource: request.resource,
        created_at: now.toISOString(),
        confirmed_at: null,
        revoked_at: null,
      });
      await repo.insertCode(trx, {
        code_hash: hashToken(code),
        grant_id: grantId,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
        used_at: null,
      });
    });
    return code;
  }

  async exchangeCode(p: {
    code?: string;
    client_id?: string;
    redirect_uri?: string;
    code_verifier?: string;
    resource?: string;
  }) {
    if (!p.code || !p.client_id || !p.redirect_uri || !p.code_verifier)
      throw new OAuthRequestError(
        'invalid_request',
        'code, client_id, redirect_uri and code_verifier are required',
      );
    const row = await repo.findCode(this.db, hashToken(p.code));
    if (
      !row ||
      row.client_id !== p.client_id ||
      row.revoked_at !== null ||
      new Date(String(row.expires_at)).getTime() <= Date.now()
    )
      throw new OAuthRequestError('invalid_grant', 'The code is not valid');
    if (row.used_at !== null) {
      // A code used twice: whoever holds it may have stolen it, so the grant ends.
      await this.revokeGrant(row.grant_id);
      throw new OAuthRequestError('invalid_grant', 'The code was already used; the grant is revoked');
    }
    if (row.redirect_uri !== p.redirect_uri)
      throw new OAuthRequestError('invalid_grant', 'redirect_uri does not match the authorization request');
    if (p.resource !== undefined && p.resource !== row.resource)
      throw new OAuthRequestError('invalid_target', 'resource does not match the authorization request');
    const challenge = createHash('sha256').update(p.code_verifier).digest('base64url');
    if (challenge !== row.code_challenge)
      throw new OAuthRequestError('invalid_grant', 'code_verifier does not match the code_challenge');
    const now = new Date().toISOString();
    if (!(await repo.useCode(this.db, row.code_hash, now)))
      throw new OAuthRequestError('invalid_grant', 'The code was already used');
    await repo.confirmGrant(this.db, row.grant_id, now);
    return this.issue(row.grant_id, row.resource);
  }

  async refresh(p: { refresh_token?: string; client_id?: string; resource?: string }) {
    if (!p.refresh_token || !p.client_id)
      throw new OAuthRequestError('invalid_request', 'refresh_token and client_id are required');
    const row = await repo.findRefreshToken(this.db, hashToken(p.refresh_token));
    if (
      !row ||
      row.client_id !== p.client_id ||
      row.revoked_at !== null ||
      new Date(String(row.expires_at)).getTime() <= Date.now()
    )
      throw new OAuthRequestError('invalid_grant', 'The refresh token is not valid');
    if (p.resource !== undefined && p.resource !== row.resource)
      throw new OAuthRequestError('invalid_target', 'resource does not match the grant');
    const used = await repo.useToken(this.db, row.token_hash, new Date().toISOString());
    if (row.used_at !== null || !used) {
      // An old refresh token came back: it leaked, so the whole grant ends (OAuth 2.1 4.3.1).
      await this.revokeGrant(row.grant_id);
      throw new OAuthRequestError(
        'invalid_grant',
        'The refresh token was already used; the grant is revoked',
      );
    }
    return this.issue(row.grant_id, row.resource);
  }

  private async issue(grantId: string, resource: string) {
    const access = `swa_${newToken()}`;
    const refresh = `swr_${newToken()}`;
    const now = Date.now();
    await repo.insertTokens(this.db, [
      {
        token_hash: hashToken(access),
        grant_id: grantId,
        kind: 'access',
        expires_at: new Date(now + ACCESS_TTL_S * 1000).toISOString(),
        created_at: new Date(now).toISOString(),
        used_at: null,
      },
      {
        token_hash: hashToken(refresh),
        grant_id: grantId,
        kind: 'refresh',
        expires_at: new Date(now + REFRESH_TTL_MS).toISOString(),
        created_at: new Date(now).toISOString(),
        used_at: null,
      },
    ]);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_TTL_S,
      refresh_token: refresh,
      scope: SCOPE,
      resource,
    };
  }

  /** RFC 7009: an access or refresh token ends its grant; unknown tokens are no error. */
  async revokeToken(token: string | undefined, clientId: string | undefined): Promise<void> {
    if (!token) throw new OAuthRequestError('invalid_request', 'token is required');
    const row = await repo.findTokenGrant(this.db, hashToken(token));
    if (row && (!clientId || row.client_id === clientId)) await this.revokeGrant(row.id);
  }

  async revokeGrant(grantId: string): Promise<void> {
    await repo.revokeGrant(this.db, grantId, new Date().toISOString());
  }

  /**
   * Who an access token acts as, for `resource`; undefined when it is unknown, expired, revoked,
   * for another resource, or its user is no longer what consented (a member removed, a client
   * suspended or churned: the grant ends then).
   */
  async verifyAccess(token: string, resource: string): Promise<TokenOwner | undefined> {
    if (!token.startsWith('swa_')) return undefined;
    // One prepared query per check (it runs on every call an access token makes): the token, its
    // grant, and whether its user is still a member (or still an active client account).
    const row = await this.accessCheck.first({ hash: hashToken(token) });
    if (!row || row.revoked_at !== null || row.resource !== resource) return undefined;
    const expiresAt = new Date(String(row.expires_at)).getTime();
    if (expiresAt <= Date.now()) return undefined;
    const allowed = row.org_client_id
      ? row.client_status !== null && row.client_status !== 'suspended' && row.client_status !== 'churned'
      : row.member !== null;
    if (!allowed) {
      await this.revokeGrant(row.grant_id);
      return undefined;
    }
    return {
      grantId: row.grant_id,
      userId: row.user_id,
      orgId: row.org_id,
      orgClientId: row.org_client_id,
      clientId: row.client_id,
      expiresAt: Math.floor(expiresAt / 1000),
    };
  }

  /** Whether the user has a grant in force for this application (its errors may then go back to it). */
  hasApproved(userId: string, clientId: string): Promise<boolean> {
    return repo.hasGrant(this.db, userId, clientId);
  }

  /** The user's grants still in force, newest first (the "Connected apps" page). */
  async listGrants(userId: string): Promise<Grant[]> {
    const rows = await repo.listGrantsOfUser(this.db, userId);
    return rows.map((r) => ({ ...r, created_at: new Date(String(r.created_at)).toISOString() }));
  }

  /** Revokes one of the user's own grants; false when it is not theirs (or already revoked). */
  revokeOwnGrant(userId: string, grantId: string): Promise<boolean> {
    return repo.revokeGrantOfUser(this.db, userId, grantId, new Date().toISOString());
  }
}
