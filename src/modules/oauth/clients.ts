// OAuth clients: registered dynamically (RFC 7591), or named by a Client ID Metadata Document (an
// https URL as client_id whose JSON is fetched, through the webhooks' SSRF guard, and cached for
// an hour). Redirect URIs must be https, or http on a loopback address (RFC 8252), and are later
// matched exactly, except for the port of a loopback one.
import { request } from 'node:https';
import type { Database } from '../../db/index.ts';
import { createAgents, type Agents } from '../../events/url-guard.ts';
import { isPlainObject } from '../../lib/objects.ts';
import { newToken } from '../../lib/tokens.ts';
import * as repo from './repo.ts';

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
/** The whole fetch of a metadata document, connection included: a server that dribbles is cut off too. */
const FETCH_DEADLINE_MS = 5_000;

// What a client may make us store (registration is open to anyone, 100 a minute per address):
// at most 10 redirect URIs of at most 500 characters, ASCII as RFC 3986 URIs are; a name cut to
// 100 characters and a client_uri of at most 500. A row holds 7 KB at most (it was 22 KB and
// more), and one that never gets a grant is deleted a day later (DCR_UNUSED_TTL_MS).
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 500;
const MAX_NAME_LENGTH = 100;
/** A registered client no person approved within a day is deleted: anyone may register, and it only takes room. */
export const DCR_UNUSED_TTL_MS = 24 * 3_600_000;
/** Expired clients deleted per registration: a few rows, yet more than a registration adds. */
const EXPIRED_PER_REGISTRATION = 100;

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
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_REDIRECT_URIS)
    throw new OAuthRequestError(
      'invalid_redirect_uri',
      `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`,
    );
  return value.map((uri) => {
    if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH)
      throw new OAuthRequestError(
        'invalid_redirect_uri',
        `each redirect URI must be a string of at most ${MAX_URI_LENGTH} characters`,
      );
    if (hasSpaceOrControl(uri))
      throw new OAuthRequestError(
        'invalid_redirect_uri',
        'a redirect URI must not contain spaces or control characters',
      );
    if (/[\u0080-\uffff]/.test(uri))
      throw new OAuthRequestError(
        'invalid_redirect_uri',
        'a redirect URI must be ASCII: percent-encode other characters (RFC 3986)',
      );
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new OAuthRequestError('invalid_redirect_uri', `'${uri.slice(0, 200)}' is not a URL`);
    }
    if (url.hash)
      throw new OAuthRequestError('invalid_redirect_uri', 'a redirect URI must not have a fragment');
    const loopbackHttp = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
    if (url.protocol !== 'https:' && !loopbackHttp)
      throw new OAuthRequestError(
        'invalid_redirect_uri',
        'redirect URIs must be https, or http on a loopback address',
      );
    return uri;
  });
}

/** A text field of client metadata, if it is a string. NUL is refused: no name needs one, and PostgreSQL text cannot hold it. */
function metadataText(
  metadata: Record<string, unknown>,
  field: string,
  code: MetadataErrorKind,
): string | undefined {
  const value = metadata[field];
  if (typeof value !== 'string') return undefined;
  if (value.includes('\u0000')) throw new OAuthRequestError(code, `${field} must not contain NUL characters`);
  return value;
}

/** The client's name, trimmed and cut to its length, or `fallback`. */
function clientName(metadata: Record<string, unknown>, code: MetadataErrorKind, fallback: string): string {
  return metadataText(metadata, 'client_name', code)?.trim().slice(0, MAX_NAME_LENGTH) || fallback;
}

/** The client's home page, shown on the consent page as text; refused when longer than a URI may be. */
function clientUri(metadata: Record<string, unknown>, code: MetadataErrorKind): string | null {
  const uri = metadataText(metadata, 'client_uri', code);
  if (uri !== undefined && uri.length > MAX_URI_LENGTH)
    throw new OAuthRequestError(code, `client_uri must be at most ${MAX_URI_LENGTH} characters`);
  return uri ?? null;
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
    return (
      isLoopback(registered) &&
      r.protocol === asked.protocol &&
      r.hostname === asked.hostname &&
      r.pathname === asked.pathname &&
      r.search === asked.search
    );
  });
}

/**
 * What went wrong with an OAuth request, named by its OAuth error code (RFC 6749 4.1.2.1 and 5.2,
 * RFC 7591 3.2.2, RFC 8707 2). How it is answered (the HTTP status) is for the way in to decide.
 */
export type OAuthErrorKind =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'invalid_target'
  | 'unsupported_response_type'
  | 'unsupported_grant_type'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

/** The kinds a client's metadata (registered, or a fetched document) is refused with. */
type MetadataErrorKind = 'invalid_client_metadata' | 'invalid_client';

/** An OAuth error: its kind, which is also the `error` code the client is told, and a description. */
export class OAuthRequestError extends Error {
  constructor(
    readonly code: OAuthErrorKind,
    message: string,
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
    const name = clientName(metadata, 'invalid_client_metadata', 'An unnamed application');
    const uri = clientUri(metadata, 'invalid_client_metadata');
    const method = metadata.token_endpoint_auth_method ?? 'none';
    if (method !== 'none')
      throw new OAuthRequestError(
        'invalid_client_metadata',
        'only public clients are supported: token_endpoint_auth_method must be "none" (PKCE protects the code)',
      );
    const client: OAuthClient = {
      clientId: `swc_${newToken()}`,
      kind: 'dcr',
      name,
      redirectUris,
      clientUri: uri,
    };
    const now = new Date();
    await this.deleteUnused(now);
    await repo.insertClient(this.database.db, {
      client_id: client.clientId,
      kind: 'dcr',
      name,
      redirect_uris: JSON.stringify(redirectUris),
      client_uri: client.clientUri,
      created_at: now.toISOString(),
      fetched_at: null,
    });
    return {
      ...client,
      raw: {
        client_name: name,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    };
  }

  /**
   * Deletes a few registered clients that no grant ever named, a day after registration: each
   * registration clears more than it adds, over the (kind, created_at) index, so the table stays
   * as small as the clients in use (pending grants are cleaned the same way, in approve()).
   */
  private async deleteUnused(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - DCR_UNUSED_TTL_MS).toISOString();
    await repo.deleteUnusedClients(this.database.db, cutoff, EXPIRED_PER_REGISTRATION);
  }

  /** The client a client_id names: registered, or a metadata document URL (fetched when not cached). */
  async find(clientId: string): Promise<OAuthClient | undefined> {
    const row = await repo.findClient(this.database.db, clientId);
    const fresh =
      row && (row.kind === 'dcr' || Date.now() - new Date(String(row.fetched_at)).getTime() < CIMD_TTL_MS);
    if (row && fresh)
      return {
        clientId: row.client_id,
        kind: row.kind,
        name: row.name,
        redirectUris: JSON.parse(row.redirect_uris) as string[],
        clientUri: row.client_uri,
      };
    if (!clientId.startsWith('https://')) return undefined;
    return this.fetchDocument(clientId);
  }

  private async fetchDocument(clientId: string): Promise<OAuthClient> {
    const url = new URL(clientId);
    if (url.hash || url.pathname === '/')
      throw new OAuthRequestError(
        'invalid_client',
        'a client id metadata URL must be https with a path and no fragment',
      );
    const body = await this.download(url);
    let document: unknown;
    try {
      document = JSON.parse(body);
    } catch {
      throw new OAuthRequestError('invalid_client', 'the client metadata document is not JSON');
    }
    if (!isPlainObject(document))
      throw new OAuthRequestError('invalid_client', 'the client metadata document is not a JSON object');
    if (document.client_id !== clientId)
      throw new OAuthRequestError('invalid_client', 'the client metadata document names another client_id');
    const redirectUris = checkRedirectUris(document.redirect_uris);
    const name = clientName(document, 'invalid_client', url.host);
    const row = {
      client_id: clientId,
      kind: 'cimd' as const,
      name,
      redirect_uris: JSON.stringify(redirectUris),
      client_uri: clientUri(document, 'invalid_client'),
      created_at: new Date().toISOString(),
      fetched_at: new Date().toISOString(),
    };
    // Refreshed in place: the client's grants stay.
    const updated = await repo.refreshClient(this.database.db, clientId, {
      name,
      redirect_uris: row.redirect_uris,
      client_uri: row.client_uri,
      fetched_at: row.fetched_at,
    });
    if (!updated) await repo.insertClient(this.database.db, row);
    return { clientId, kind: 'cimd', name, redirectUris, clientUri: row.client_uri };
  }

  /**
   * The document's text, within FETCH_DEADLINE_MS from the first byte sent to the last received:
   * a socket timeout alone only notices silence, and a server sending a byte a second would hold
   * the consent page (and a connection of ours) for as long as it liked.
   */
  private download(url: URL): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const settle = (error: OAuthRequestError | undefined, text = '') => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        if (error) {
          req.destroy();
          reject(error);
        } else resolve(text);
      };
      const refuse = (message: string) => settle(new OAuthRequestError('invalid_client', message));
      const deadline = setTimeout(
        () => refuse(`the client metadata document did not arrive within ${FETCH_DEADLINE_MS / 1000} s`),
        FETCH_DEADLINE_MS,
      );
      const req = request(
        url,
        { agent: this.agents.https, headers: { accept: 'application/json' } },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return refuse(`the client's metadata document answered ${res.statusCode}`);
          }
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            if (text.length > MAX_DOCUMENT) refuse('the client metadata document is larger than 64 KB');
          });
          res.on('end', () => settle(undefined, text));
          res.on('error', (error) =>
            refuse(`the client metadata document could not be fetched: ${error.message}`),
          );
        },
      );
      req.on('error', (error) =>
        refuse(`the client metadata document could not be fetched: ${error.message}`),
      );
      req.end();
    });
  }
}
