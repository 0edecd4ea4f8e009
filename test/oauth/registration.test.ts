// Dynamic client registration (RFC 7591) at POST /oauth/register: a public client is registered
// with what it asked for, cleaned; metadata the server cannot honour is refused with RFC 7591's
// error codes and a description, and nothing is stored. On PostgreSQL a NUL in a name was a 500.
// What a registration may store is bounded (10 redirect URIs of 500 ASCII characters, a body of
// 64 KiB), and a client no grant ever named is deleted a day later, at a later registration.
import { describe, expect, it } from 'vitest';
import { redirectAllowed, type OAuthClient } from '../../src/modules/oauth/clients.ts';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi();

async function register(metadata: unknown) {
  const res = await api.app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(metadata),
  });
  return { status: res.statusCode, body: res.json() as Record<string, any>, headers: res.headers };
}
const stored = async () =>
  (await api.ctx.database.db.selectFrom('oauth_clients').select('client_id').execute()).length;

describe('POST /oauth/register', () => {
  it('registers a public client with its name trimmed, or a neutral one', async () => {
    const named = await register({
      client_name: '  My Agent  ',
      redirect_uris: ['http://127.0.0.1:8976/callback', 'https://agent.example/cb'],
    });
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
    expect(
      (await register({ client_name: ' ', redirect_uris: ['http://localhost/cb'] })).body.client_name,
    ).toBe('An unnamed application');
  });

  it('refuses what it cannot honour, storing nothing', async () => {
    const before = await stored();
    const cases: [unknown, string, string][] = [
      [{}, 'invalid_redirect_uri', 'redirect_uris must list 1 to 10 URIs'],
      [[], 'invalid_redirect_uri', 'redirect_uris must list 1 to 10 URIs'],
      [
        { redirect_uris: 'https://agent.example/cb' },
        'invalid_redirect_uri',
        'redirect_uris must list 1 to 10 URIs',
      ],
      [
        { redirect_uris: ['http://agent.example/cb'] },
        'invalid_redirect_uri',
        'redirect URIs must be https, or http on a loopback address',
      ],
      [
        { redirect_uris: ['https://agent.example/cb#x'] },
        'invalid_redirect_uri',
        'a redirect URI must not have a fragment',
      ],
      [
        { redirect_uris: ['not a url'] },
        'invalid_redirect_uri',
        'a redirect URI must not contain spaces or control characters',
      ],
      [
        { redirect_uris: ['https://agent.example/c\nb'] },
        'invalid_redirect_uri',
        'a redirect URI must not contain spaces or control characters',
      ],
      [
        { redirect_uris: ['https://agent.example/cb\u0000'] },
        'invalid_redirect_uri',
        'a redirect URI must not contain spaces or control characters',
      ],
      [
        { redirect_uris: ['https://agent.example/cb'], client_name: 'Agent\u0000' },
        'invalid_client_metadata',
        'client_name must not contain NUL characters',
      ],
      [
        { redirect_uris: ['https://agent.example/cb'], client_uri: '\u0000' },
        'invalid_client_metadata',
        'client_uri must not contain NUL characters',
      ],
      [
        { redirect_uris: ['https://agent.example/cb'], token_endpoint_auth_method: 'client_secret_basic' },
        'invalid_client_metadata',
        'only public clients are supported: token_endpoint_auth_method must be "none" (PKCE protects the code)',
      ],
      // What is stored is bounded: 10 redirect URIs of 500 ASCII characters, a client_uri of 500.
      [
        { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://agent.example/cb${i}`) },
        'invalid_redirect_uri',
        'redirect_uris must list 1 to 10 URIs',
      ],
      [
        { redirect_uris: [`https://agent.example/${'a'.repeat(480)}`] },
        'invalid_redirect_uri',
        'each redirect URI must be a string of at most 500 characters',
      ],
      [
        { redirect_uris: ['https://agent.example/caf\u00e9'] },
        'invalid_redirect_uri',
        'a redirect URI must be ASCII: percent-encode other characters (RFC 3986)',
      ],
      [
        {
          redirect_uris: ['https://agent.example/cb'],
          client_uri: `https://agent.example/${'a'.repeat(480)}`,
        },
        'invalid_client_metadata',
        'client_uri must be at most 500 characters',
      ],
    ];
    for (const [metadata, error, description] of cases) {
      const res = await register(metadata);
      expect(res.status, JSON.stringify(metadata)).toBe(400);
      expect(res.body, JSON.stringify(metadata)).toEqual({ error, error_description: description });
    }
    expect(await stored()).toBe(before);
  });
});

describe('the largest registration', () => {
  it('is stored whole: 10 redirect URIs of 500 characters, a name cut to 100', async () => {
    const uris = Array.from({ length: 10 }, (_, i) => `https://agent.example/${String(i).padEnd(478, 'x')}`);
    expect(uris.every((uri) => uri.length === 500)).toBe(true);
    const res = await register({
      client_name: 'N'.repeat(300),
      client_uri: `https://agent.example/${'u'.repeat(478)}`,
      redirect_uris: uris,
    });
    expect(res.status).toBe(201);
    expect(res.body.redirect_uris).toEqual(uris);
    expect(res.body.client_name).toBe('N'.repeat(100));
  });

  it('is read from a body of at most 64 KiB', async () => {
    const before = await stored();
    const res = await register({
      redirect_uris: ['https://agent.example/cb'],
      software_statement: 'x'.repeat(70_000),
    });
    expect(res.status).toBe(413);
    expect(await stored()).toBe(before);
  });
});

describe('registered clients no grant ever named', () => {
  const HOUR = 3_600_000;
  const age = (clientId: string, ms: number) =>
    api.ctx.database.db
      .updateTable('oauth_clients')
      .set({ created_at: new Date(Date.now() - ms).toISOString() })
      .where('client_id', '=', clientId)
      .execute();
  const exists = async (clientId: string) =>
    (await api.ctx.database.db
      .selectFrom('oauth_clients')
      .select('client_id')
      .where('client_id', '=', clientId)
      .executeTakeFirst()) !== undefined;

  it('are deleted at a later registration once a day old; those with a grant and younger ones stay', async () => {
    const { oauth } = api.ctx.services;
    const member = await api.ctx.services.accounts.createMember({
      email: `m-${Date.now()}@example.com`,
      password: 'a long enough password',
      name: null,
      orgId: api.org.id,
      role: 'member',
    });
    const make = async () =>
      (await register({ client_name: 'Agent', redirect_uris: ['https://agent.example/cb'] })).body
        .client_id as string;
    const [abandoned, approved, recent] = [await make(), await make(), await make()];
    const auth = await oauth.checkAuthorization({
      client_id: approved,
      redirect_uri: 'https://agent.example/cb',
      response_type: 'code',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      resource: `${new URL(api.ctx.config.publicUrl).origin}/api/mcp`,
    });
    await oauth.approve(auth, { userId: member.id, orgId: api.org.id, orgClientId: null });
    await age(abandoned, 25 * HOUR);
    await age(approved, 25 * HOUR);
    await age(recent, 23 * HOUR);

    const next = await make();
    expect(await exists(abandoned)).toBe(false);
    expect(await exists(approved)).toBe(true);
    expect(await exists(recent)).toBe(true);
    expect(await exists(next)).toBe(true);
  });
});

describe('redirect URIs at authorization', () => {
  const client: OAuthClient = {
    clientId: 'swc_x',
    kind: 'dcr',
    name: 'Agent',
    redirectUris: ['http://127.0.0.1:8976/callback', 'https://agent.example/cb'],
    clientUri: null,
  };
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

describe('a registration cleaned away during consent', () => {
  it('is refused as invalid_client, not a 500', async () => {
    const { oauth } = api.ctx.services;
    const client = await oauth.clients.register({
      client_name: 'Gone',
      redirect_uris: ['http://127.0.0.1/cb'],
    });
    const auth = await oauth.checkAuthorization({
      client_id: client.clientId,
      redirect_uri: 'http://127.0.0.1/cb',
      response_type: 'code',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      resource: 'http://sitewright.test/api/mcp',
    });
    await api.ctx.database.db.deleteFrom('oauth_clients').where('client_id', '=', client.clientId).execute();
    const user = await api.ctx.services.accounts.createMember({
      email: `gone-${process.pid}@example.com`,
      password: 'a long enough password',
      name: null,
      orgId: api.org.id,
      role: 'owner',
    });
    await expect(
      oauth.approve(auth, { userId: user.id, orgId: api.org.id, orgClientId: null }),
    ).rejects.toMatchObject({ code: 'invalid_client' });
  });
});
