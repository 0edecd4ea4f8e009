// Dynamic client registration (RFC 7591) at POST /oauth/register: a public client is registered
// with what it asked for, cleaned; metadata the server cannot honour is refused with RFC 7591's
// error codes and a description, and nothing is stored. On PostgreSQL a NUL in a name was a 500.
import { describe, expect, it } from 'vitest';
import { redirectAllowed, type OAuthClient } from '../../src/modules/oauth/clients.ts';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi();

async function register(metadata: unknown) {
  const res = await api.app.inject({ method: 'POST', url: '/oauth/register', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(metadata) });
  return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers };
}
const stored = async () => (await api.ctx.database.db.selectFrom('oauth_clients').select('client_id').execute()).length;

describe('POST /oauth/register', () => {
  it('registers a public client with its name trimmed, or a neutral one', async () => {
    const named = await register({ client_name: '  My Agent  ', redirect_uris: ['http://127.0.0.1:8976/callback', 'https://agent.example/cb'] });
    expect(named.status).toBe(201);
    expect(named.headers['cache-control']).toBe('no-store');
    expect(named.body).toEqual({
      client_id: expect.stringMatching(/^swc_/),
      client_id_issued_at: expect.any(Number),
      client_name: 'My Agent',
      redirect_uris: ['http://127.0.0.1:8976/callback', 'https://agent.example/cb'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    expect((await register({ client_name: ' ', redirect_uris: ['http://localhost/cb'] })).body.client_name).toBe('An unnamed application');
  });

  it('refuses what it cannot honour, storing nothing', async () => {
    const before = await stored();
    const cases: [unknown, string, string][] = [
      [{}, 'invalid_redirect_uri', 'redirect_uris must list 1 to 10 URIs'],
      [[], 'invalid_redirect_uri', 'redirect_uris must list 1 to 10 URIs'],
      [{ redirect_uris: 'https://agent.example/cb' }, 'invalid_redirect_uri', 'redirect_uris must list 1 to 10 URIs'],
      [{ redirect_uris: ['http://agent.example/cb'] }, 'invalid_redirect_uri', 'redirect URIs must be https, or http on a loopback address'],
      [{ redirect_uris: ['https://agent.example/cb#x'] }, 'invalid_redirect_uri', 'a redirect URI must not have a fragment'],
      [{ redirect_uris: ['not a url'] }, 'invalid_redirect_uri', 'a redirect URI must not contain spaces or control characters'],
      [{ redirect_uris: ['https://agent.example/c\nb'] }, 'invalid_redirect_uri', 'a redirect URI must not contain spaces or control characters'],
      [{ redirect_uris: ['https://agent.example/cb\u0000'] }, 'invalid_redirect_uri', 'a redirect URI must not contain spaces or control characters'],
      [{ redirect_uris: ['https://agent.example/cb'], client_name: 'Agent\u0000' }, 'invalid_client_metadata', 'client_name must not contain NUL characters'],
      [{ redirect_uris: ['https://agent.example/cb'], client_uri: '\u0000' }, 'invalid_client_metadata', 'client_uri must not contain NUL characters'],
      [{ redirect_uris: ['https://agent.example/cb'], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata', 'only public clients are supported: token_endpoint_auth_method must be "none" (PKCE protects the code)'],
    ];
    for (const [metadata, error, description] of cases) {
      const res = await register(metadata);
      expect(res.status, JSON.stringify(metadata)).toBe(400);
      expect(res.body, JSON.stringify(metadata)).toEqual({ error, error_description: description });
    }
    expect(await stored()).toBe(before);
  });
});

describe('redirect URIs at authorization', () => {
  const client: OAuthClient = { clientId: 'swc_x', kind: 'dcr', name: 'Agent', redirectUris: ['http://127.0.0.1:8976/callback', 'https://agent.example/cb'], clientUri: null };
  it('matches exactly, a loopback one on any port (RFC 8252), and nothing the URL parser would rewrite', () => {
    expect(redirectAllowed(client, 'https://agent.example/cb')).toBe(true);
    expect(redirectAllowed(client, 'http://127.0.0.1:8976/callback')).toBe(true);
    expect(redirectAllowed(client, 'http://127.0.0.1:51234/callback')).toBe(true);
    expect(redirectAllowed(client, 'https://agent.example/cb/')).toBe(false);
    expect(redirectAllowed(client, 'https://agent.example:444/cb')).toBe(false);
    expect(redirectAllowed(client, 'http://127.0.0.1:51234/other')).toBe(false);
    expect(redirectAllowed(client, 'http://localhost:8976/callback')).toBe(false);
    // The parser drops a newline or a tab: the path would match, the Location sent would not be the URI checked.
    expect(redirectAllowed(client, 'http://127.0.0.1:51234/call\nback')).toBe(false);
    expect(redirectAllowed(client, 'http://127.0.0.1:51234/call\tback')).toBe(false);
  });
});
