// OAuth clients: registered dynamically (RFC 7591), or named by a Client ID Metadata Document (an
// https URL as client_id whose JSON is fetched, through the webhooks' SSRF guard, and cached for
// an hour). Redirect URIs must be https, or http on a loopback address (RFC 8252), and are later
// matched exactly, except for the port of a loopback one.
import { request } from 'node:https';
import type { Database } from '../../db/index.ts';
import { createAgents, type Agents } from '../../events/url-guard.ts';
import { isPlainObject } from '../../lib/objects.ts';
import { newToken } from '../../lib/tokens.ts';

export interface OAuthClient {
  clientId: string;
  kind: 'dcr' | 'cimd';
  name: string;
  redirectUris: string[];
  clientUri: string | null;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const CIMD_TTL_MS = 3_600_000;
const MAX_DOCUMENT = 64 * 1024;

export function isLoopback(uri: string): boolean {
  try {
    return LOOPBACK.has(new URL(uri).hostname);
  } catch {
    return false;
  }
}

/** The URL parser drops or encodes these, while a redirect URI is matched, and sent back, as written. */
function hasSpaceOrControl(uri: string): boolean {
  return [...uri].some((c) => c <= ' ' || c === '\u007f');
}

function checkRedirectUris(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 10) throw new OAuthRequestError('invalid_redirect_uri', 'redirect_uris must list 1 to 10 URIs');
  return value.map((uri) => {
    if (typeof uri !== 'string' || uri.length > 2000) throw new OAuthRequestError('invalid_redirect_uri', 'each redirect URI must be a string of at most 2000 characters');
    if (hasSpaceOrControl(uri)) throw new OAuthRequestError('invalid_redirect_uri', 'a redirect URI must not contain spaces or control characters');
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new OAuthRequestError('invalid_redirect_uri', `'${uri.slice(0, 200)}' is not a URL`);
    }
    if (url.hash) throw new OAuthRequestError('invalid_redirect_uri', 'a redirect URI must not have a fragment');
    const loopbackHttp = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
    if (url.protocol !== 'https:' && !loopbackHttp) throw new OAuthRequestError('invalid_redirect_uri', 'redirect URIs must be https, or http on a loopback address');
    return uri;
  });
}

/** A text field of client metadata, if it is a string. NUL is refused: no name needs one, and PostgreSQL text cannot hold it. */
function metadataText(metadata: Record<string, unknown>, field: string, code: string): string | undefined {
  const value = metadata[field];
  if (typeof value !== 'string') return undefined;
  if (value.includes('\u0000')) throw new OAuthRequestError(code, `${field} must not contain NUL characters`);
  return value;
}

/** A redirect URI the client registered: exactly, or a loopback one with any port (RFC 8252 7.3). */
export function redirectAllowed(client: OAuthClient, uri: string): boolean {
  if (client.redirectUris.includes(uri)) return true;
  if (!isLoopback(uri) || hasSpaceOrControl(uri)) return false;
  let asked: URL;
  try {
    asked = new URL(uri);
  } catch {
    return false;
  }
  return client.redirectUris.some((registered) => {
    const r = new URL(registered);
    return isLoopback(registered) && r.protocol === asked.protocol && r.hostname === asked.hostname && r.pathname === asked.pathname && r.search === asked.search;
  });
}

/** An OAuth error with its code (RFC 6749 5.2, 7591 3.2.2). */
export class OAuthRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export class OAuthClients {
  private readonly agents: Agents;

  constructor(
    private readonly database: Database,
    allowPrivate: boolean,
  ) {
    this.agents = createAgents(allowPrivate);
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  async register(metadata: Record<string, unknown>): Promise<OAuthClient & { raw: Record<string, unknown> }> {
    const redirectUris = checkRedirectUris(metadata.redirect_uris);
    const name = metadataText(metadata, 'client_name', 'invalid_client_metadata')?.trim().slice(0, 100) || 'An unnamed application';
    const clientUri = metadataText(metadata, 'client_uri', 'invalid_client_metadata')?.slice(0, 2000) ?? null;
    const method = metadata.token_endpoint_auth_method ?? 'none';
    if (method !== 'none') throw new OAuthRequestError('invalid_client_metadata', 'only public clients are supported: token_endpoint_auth_method must be "none" (PKCE protects the code)');
    const client: OAuthClient = { clientId: `swc_${newToken()}`, kind: 'dcr', name, redirectUris, clientUri };
    await this.database.db
      .insertInto('oauth_clients')
      .values({ client_id: client.clientId, kind: 'dcr', name, redirect_uris: JSON.stringify(redirectUris), client_uri: client.clientUri, created_at: new Date().toISOString(), fetched_at: null })
      .execute();
    return { ...client, raw: { client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] } };
  }

  /** The client a client_id names: registered, or a metadata document URL (fetched when not cached). */
  async find(clientId: string): Promise<OAuthClient | undefined> {
    const row = await this.database.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
    const fresh = row && (row.kind === 'dcr' || Date.now() - new Date(String(row.fetched_at)).getTime() < CIMD_TTL_MS);
    if (row && fresh) return { clientId: row.client_id, kind: row.kind, name: row.name, redirectUris: JSON.parse(row.redirect_uris) as string[], clientUri: row.client_uri };
    if (!clientId.startsWith('https://')) return undefined;
    return this.fetchDocument(clientId);
  }

  private async fetchDocument(clientId: string): Promise<OAuthClient> {
    const url = new URL(clientId);
    if (url.hash || url.pathname === '/') throw new OAuthRequestError('invalid_client', 'a client id metadata URL must be https with a path and no fragment');
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(url, { agent: this.agents.https, timeout: 5_000, headers: { accept: 'application/json' } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new OAuthRequestError('invalid_client', `the client's metadata document answered ${res.statusCode}`));
        }
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.length > MAX_DOCUMENT) req.destroy(new OAuthRequestError('invalid_client', 'the client metadata document is larger than 64 KB'));
        });
        res.on('end', () => resolve(text));
      });
      req.on('timeout', () => req.destroy(new OAuthRequestError('invalid_client', 'the client metadata document did not answer within 5 s')));
      req.on('error', (error) => reject(error instanceof OAuthRequestError ? error : new OAuthRequestError('invalid_client', `the client metadata document could not be fetched: ${error.message}`)));
      req.end();
    });
    let document: unknown;
    try {
      document = JSON.parse(body);
    } catch {
      throw new OAuthRequestError('invalid_client', 'the client metadata document is not JSON');
    }
    if (!isPlainObject(document)) throw new OAuthRequestError('invalid_client', 'the client metadata document is not a JSON object');
    if (document.client_id !== clientId) throw new OAuthRequestError('invalid_client', 'the client metadata document names another client_id');
    const redirectUris = checkRedirectUris(document.redirect_uris);
    const name = metadataText(document, 'client_name', 'invalid_client')?.trim().slice(0, 100) || url.host;
    const clientUri = metadataText(document, 'client_uri', 'invalid_client')?.slice(0, 2000) ?? null;
    const row = { client_id: clientId, kind: 'cimd' as const, name, redirect_uris: JSON.stringify(redirectUris), client_uri: clientUri, created_at: new Date().toISOString(), fetched_at: new Date().toISOString() };
    // Refreshed in place: the client's grants stay.
    const updated = await this.database.db.updateTable('oauth_clients').set({ name, redirect_uris: row.redirect_uris, client_uri: row.client_uri, fetched_at: row.fetched_at }).where('client_id', '=', clientId).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.database.db.insertInto('oauth_clients').values(row).execute();
    return { clientId, kind: 'cimd', name, redirectUris, clientUri: row.client_uri };
  }
}

