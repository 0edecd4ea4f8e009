// OAuth 2.1 sign-in for AI clients, end to end against the running server: discovery from the MCP
// endpoint's 401 (RFC 9728 then RFC 8414, with oauth4webapi), dynamic registration, authorize
// with PKCE S256 and a resource, consent by a signed-in person in Chromium, the code for tokens,
// tool calls and the projects connector with the access token, refresh with rotation, a replayed
// refresh token revoking the grant, revocation, the Connected apps page; and every refusal.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import type { Browser, Page } from 'playwright-core';
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createContainer, type Container } from '../../src/container.ts';
import { buildServer } from '../../src/main.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { freePort } from '../helpers/server-process.ts';
import { checkPage as check, cspViolations, hasChromium, launchChromium } from '../helpers/browser.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const PASSWORD = 'a long enough password';
const insecure = { [oauth.allowInsecureRequests]: true };

let db: TestDatabase;
let ctx: Container;
let app: FastifyInstance;
let browser: Browser;
let base: string;
let callback: Server;
let callbackUrl: string;
let lastCallback: URL | undefined;
let orgId: string;

beforeAll(async () => {
  if (!hasChromium) return;
  db = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createContainer(testConfig(db, { PUBLIC_URL: base, GENERATION_WORKER: 'false' }), {
    rateLimitKeyPrefix: `sw:test:${process.pid}:oauth`,
  });
  app = await buildServer(ctx);
  await app.listen({ port, host: '127.0.0.1' });
  // The AI client's loopback redirect target: it records where the browser was sent.
  callback = createServer((req, res) => {
    if (req.url?.startsWith('/callback')) lastCallback = new URL(req.url, callbackUrl);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  const org = await ctx.services.orgs.createOrg('Northwind Studio');
  orgId = org.id;
  await ctx.services.accounts.createMember({
    email: 'nora@northwind.test',
    password: PASSWORD,
    name: 'Nora',
    orgId,
    role: 'owner',
  });
  const client = await ctx.services.clients.create(systemPrincipal(orgId), {
    email: 'luna@bakery.test',
    name: 'Luna',
  });
  await ctx.services.projects.create(systemPrincipal(orgId), {
    client_email: client.email,
    name: 'Luna Bakery',
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await ctx?.close();
  await db?.drop();
  await new Promise((resolve) => callback?.close(resolve));
});

/** What an MCP client does first: a tool call, its 401, and the metadata it points to. */
async function discover() {
  const res = await fetch(`${base}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_projects', arguments: {} },
    }),
  });
  expect(res.status).toBe(401);
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')![1]!;
  const metadata = await (await fetch(metadataUrl)).json();
  const issuer = new URL(metadata.authorization_servers[0]);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
  expect(as.code_challenge_methods_supported).toEqual(['S256']);
  return { as, resource: metadata.resource as string };
}

async function register(as: oauth.AuthorizationServer, name = 'Test Agent <b>x</b>') {
  const response = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [callbackUrl], client_name: name, token_endpoint_auth_method: 'none' },
    insecure,
  );
  return (await oauth.processDynamicClientRegistrationResponse(response)) as oauth.Client;
}

/** A signed-in person consents in the browser; answers the callback's parameters. */
async function consent(page: Page, url: URL, decision: 'Allow' | 'Deny' = 'Allow', shot?: string) {
  lastCallback = undefined;
  await page.goto(url.toString());
  if (page.url().includes('/sign-in')) {
    await page.getByLabel('Email').fill('nora@northwind.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor();
  }
  await check(page, shot);
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL((u) => u.toString().startsWith(callbackUrl));
  return lastCallback!;
}

function authorizeUrl(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  challenge: string,
  extra: Record<string, string | null> = {},
) {
  const url = new URL(as.authorization_endpoint!);
  const params: Record<string, string | null> = {
    client_id: client.client_id,
    redirect_uri: callbackUrl,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'mcp',
    state: 'st-1',
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url;
}

describe.runIf(hasChromium)('OAuth 2.1 for AI clients', () => {
  it('discovers, registers, consents, exchanges, calls tools, refreshes, catches a replay, revokes', async () => {
    const { as, resource } = await discover();
    const client = await register(as);
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    // Under the pages' real CSP: Chromium checks form-action along the consent form's redirect.
    const context = await browser.newContext();
    const page = await context.newPage();
    const blocked = cspViolations(page);

    const back = await consent(
      page,
      authorizeUrl(as, client, challenge, { resource }),
      'Allow',
      'oauth-consent',
    );
    // The client's name is shown as text, never as markup; the loopback redirect is warned about.
    expect(back.searchParams.get('iss')).toBe(as.issuer);
    const params = oauth.validateAuthResponse(as, client, back, 'st-1');
    const wrongVerifier = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      callbackUrl,
      oauth.generateRandomCodeVerifier(),
      { additionalParameters: { resource }, ...insecure },
    );
    await expect(oauth.processAuthorizationCodeResponse(as, client, wrongVerifier)).rejects.toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/code_verifier/),
    });
    // A code that failed once is not spent: the right verifier still works (then never again).
    const tokenResponse = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      callbackUrl,
      verifier,
      { additionalParameters: { resource }, ...insecure },
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'mcp' });

    // The access token works for tools and as the projects connector, nowhere else.
    const mcp = new McpClient({ name: 'oauth-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    const listed = (await mcp.callTool({ name: 'list_projects', arguments: {} })) as any;
    expect(listed.structuredContent.projects.map((p: any) => p.name)).toEqual(['Luna Bakery']);
    await mcp.close();
    const connector = await fetch(`${base}/api/v1/projects`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(connector.status).toBe(200);
    expect((await connector.json()).projects).toHaveLength(1);
    expect(
      (await fetch(`${base}/api/v1/clients`, { headers: { authorization: `Bearer ${tokens.access_token}` } }))
        .status,
    ).toBe(401);
    expect(
      (
        await fetch(`${base}/api/v1/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(401);

    // Refresh rotates; the old refresh token used again ends the whole grant.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const replay = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.None(),
      tokens.refresh_token!,
      insecure,
    );
    await expect(oauth.processRefreshTokenResponse(as, client, replay)).rejects.toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/already used/),
    });
    expect(
      (
        await fetch(`${base}/api/v1/projects`, {
          headers: { authorization: `Bearer ${refreshed.access_token}` },
        })
      ).status,
    ).toBe(401);

    // A new grant, then revocation (RFC 7009): the token stops working; Connected apps lists grants.
    const verifier2 = oauth.generateRandomCodeVerifier();
    const back2 = await consent(
      page,
      authorizeUrl(as, client, await oauth.calculatePKCECodeChallenge(verifier2), { resource }),
    );
    const tokens2 = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        oauth.validateAuthResponse(as, client, back2, 'st-1'),
        callbackUrl,
        verifier2,
        { additionalParameters: { resource }, ...insecure },
      ),
    );
    await page.goto(`${base}/account/connected-apps`);
    expect(await page.locator('main').textContent()).toContain('Test Agent <b>x</b>');
    await check(page, 'connected-apps');
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), tokens2.access_token, insecure),
    );
    expect(
      (
        await fetch(`${base}/api/v1/projects`, {
          headers: { authorization: `Bearer ${tokens2.access_token}` },
        })
      ).status,
    ).toBe(401);
    expect(blocked).toEqual([]);
    await context.close();
  }, 90_000);

  it('refuses a wrong redirect, a missing or foreign resource, no PKCE, a denial, and a removed member’s grant', async () => {
    const { as, resource } = await discover();
    const client = await register(as, 'Second Agent');
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const context = await browser.newContext();
    const page = await context.newPage();
    const blocked = cspViolations(page);
    await consent(page, authorizeUrl(as, client, challenge, { resource }), 'Deny');
    expect(lastCallback!.searchParams.get('error')).toBe('access_denied');
    // Allowed, but the code never redeemed: no grant shows (the application got nothing).
    await consent(page, authorizeUrl(as, client, challenge, { resource }), 'Allow');
    expect(lastCallback!.searchParams.get('code')).toBeTruthy();
    await page.goto(`${base}/account/connected-apps`);
    expect(await page.locator('main').textContent()).not.toContain('Second Agent');

    // A redirect URI the client did not register: a page here, never a redirect there.
    const wrong = await page.goto(
      authorizeUrl(as, client, challenge, { resource, redirect_uri: 'https://evil.example/cb' }).toString(),
    );
    expect(wrong!.status()).toBe(400);
    // Errors of an application the person never approved: a page here, not a redirect there.
    for (const [extra, error] of [
      [{ resource: null }, 'invalid_target'],
      [{ resource: 'https://other.example/api' }, 'invalid_target'],
      [{ resource, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ resource, scope: 'admin' }, 'invalid_scope'],
    ] as const) {
      lastCallback = undefined;
      const answer = await page.goto(
        authorizeUrl(as, client, challenge, extra as Record<string, string | null>).toString(),
      );
      expect([JSON.stringify(extra), answer!.status()]).toEqual([JSON.stringify(extra), 400]);
      expect(await page.locator('main').textContent()).toContain(error);
      expect(lastCallback).toBeUndefined();
    }

    // A token bound to the MCP resource is refused when exchanged for another one.
    const verifier = oauth.generateRandomCodeVerifier();
    const back = await consent(
      page,
      authorizeUrl(as, client, await oauth.calculatePKCECodeChallenge(verifier), { resource }),
    );
    const other = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      oauth.validateAuthResponse(as, client, back, 'st-1'),
      callbackUrl,
      verifier,
      { additionalParameters: { resource: 'https://other.example/api' }, ...insecure },
    );
    await expect(oauth.processAuthorizationCodeResponse(as, client, other)).rejects.toMatchObject({
      error: 'invalid_target',
    });

    const verifier2 = oauth.generateRandomCodeVerifier();
    const back2 = await consent(
      page,
      authorizeUrl(as, client, await oauth.calculatePKCECodeChallenge(verifier2), { resource }),
    );
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        oauth.validateAuthResponse(as, client, back2, 'st-1'),
        callbackUrl,
        verifier2,
        { additionalParameters: { resource }, ...insecure },
      ),
    );
    expect(
      (
        await fetch(`${base}/api/v1/projects`, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        })
      ).status,
    ).toBe(200);
    // Approved once, the application hears of its errors at its redirect URI (RFC 6749 4.1.2.1).
    lastCallback = undefined;
    await page.goto(authorizeUrl(as, client, challenge, { resource, scope: 'admin' }).toString());
    await page.waitForURL((u) => u.toString().startsWith(callbackUrl));
    expect(lastCallback!.searchParams.get('error')).toBe('invalid_scope');
    // The same code used again: refused, and the grant it made ends with it (it may have leaked).
    const replayed = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      oauth.validateAuthResponse(as, client, back2, 'st-1'),
      callbackUrl,
      verifier2,
      { additionalParameters: { resource }, ...insecure },
    );
    await expect(oauth.processAuthorizationCodeResponse(as, client, replayed)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(
      (
        await fetch(`${base}/api/v1/projects`, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        })
      ).status,
    ).toBe(401);

    // A member who leaves the organization: their grants end.
    const verifier3 = oauth.generateRandomCodeVerifier();
    const back3 = await consent(
      page,
      authorizeUrl(as, client, await oauth.calculatePKCECodeChallenge(verifier3), { resource }),
    );
    const tokens3 = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        oauth.validateAuthResponse(as, client, back3, 'st-1'),
        callbackUrl,
        verifier3,
        { additionalParameters: { resource }, ...insecure },
      ),
    );
    expect(
      (
        await fetch(`${base}/api/v1/projects`, {
          headers: { authorization: `Bearer ${tokens3.access_token}` },
        })
      ).status,
    ).toBe(200);
    const nora = await ctx.services.accounts.findUserByEmail('nora@northwind.test');
    await ctx.database.db
      .deleteFrom('memberships')
      .where('user_id', '=', nora!.id)
      .where('org_id', '=', orgId)
      .execute();
    expect(
      (
        await fetch(`${base}/api/v1/projects`, {
          headers: { authorization: `Bearer ${tokens3.access_token}` },
        })
      ).status,
    ).toBe(401);
    expect(blocked).toEqual([]);
    await context.close();
  }, 90_000);
});
