// A Client ID Metadata Document client: an AI client whose client_id is the https URL of its own
// JSON metadata, served here on loopback with a self-signed certificate. The real server runs as a
// child process that trusts that certificate (NODE_EXTRA_CA_CERTS, as an operator would add a
// CA) and may reach loopback addresses (WEBHOOKS_ALLOW_PRIVATE: the same SSRF guard as webhooks).
// The consent page names the client from its document, the code is exchanged with oauth4webapi,
// the document is fetched once and then cached, and a document that names another client_id, is
// not JSON or is missing is refused with a clear page, and one that takes longer than 5 s in all
// (however steadily it arrives) is given up.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer } from '../../src/container.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { freePort, ServerProcess } from '../helpers/server-process.ts';

let db: TestDatabase;
let server: ServerProcess;
let documents: Server;
let certDir: string;
let docsOrigin: string;
let sessionCookie: string;
const fetched: string[] = [];
const callback = 'http://127.0.0.1:8976/callback';

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'sitewright-cimd-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(certDir, 'key.pem'),
      '-out',
      join(certDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  documents = createHttpsServer(
    { key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) },
    (req, res) => {
      fetched.push(req.url ?? '');
      const self = `${docsOrigin}${req.url}`;
      if (req.url === '/slow.json')
        return dribble(
          res,
          JSON.stringify({ client_id: self, client_name: 'Slow Agent', redirect_uris: [callback] }),
        );
      const bodies: Record<string, string> = {
        '/agent.json': JSON.stringify({
          client_id: self,
          client_name: 'Doc <b>Agent</b>',
          client_uri: 'https://agent.example',
          redirect_uris: [callback],
          token_endpoint_auth_method: 'none',
        }),
        '/impostor.json': JSON.stringify({
          client_id: `${docsOrigin}/agent.json`,
          client_name: 'Impostor',
          redirect_uris: [callback],
        }),
        '/broken.json': '{"client_id":',
        '/null.json': 'null',
        '/nul-name.json': JSON.stringify({
          client_id: self,
          client_name: 'Agent\u0000',
          redirect_uris: [callback],
        }),
      };
      const body = bodies[req.url ?? ''];
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    },
  );
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  docsOrigin = `https://localhost:${(documents.address() as AddressInfo).port}`;

  db = await createTestDatabase();
  const port = await freePort();
  const env = {
    DATA_DIR: db.dataDir,
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    GENERATION_WORKER: 'false',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    NODE_EXTRA_CA_CERTS: join(certDir, 'cert.pem'),
  };
  const container = await createContainer(testConfig(db, env));
  try {
    const org = await container.services.orgs.createOrg('Northwind Studio');
    const owner = await container.services.accounts.createMember({
      email: 'nora@northwind.test',
      password: 'a long enough password',
      name: 'Nora',
      orgId: org.id,
      role: 'owner',
    });
    sessionCookie = `sitewright_session=${await container.services.accounts.openSession(owner.id, org.id)}`;
  } finally {
    await container.close();
  }
  server = new ServerProcess(port, env);
  await server.start();
}, 60_000);

/**
 * A valid document sent a space every 300 ms for 8 s before its JSON: never silent long enough for
 * an idle timeout, far slower than the fetch's deadline allows.
 */
function dribble(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  let sent = 0;
  const timer = setInterval(() => {
    if (++sent < 27) return void res.write(' ');
    clearInterval(timer);
    res.end(body);
  }, 300);
  res.on('close', () => clearInterval(timer));
}

afterAll(async () => {
  await server?.kill('SIGTERM');
  await new Promise((resolve) => documents?.close(resolve));
  await db?.drop();
  rmSync(certDir, { recursive: true, force: true });
});

function authorizeUrl(clientId: string, challenge: string) {
  const url = new URL('/oauth/authorize', server.url);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: callback,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${server.url}/api/mcp`,
    scope: 'mcp',
    state: 's1',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

/** The consent page as the signed-in person sees it, with its cookies and form fields. */
async function consent(clientId: string, challenge: string) {
  const res = await fetch(authorizeUrl(clientId, challenge), {
    headers: { cookie: sessionCookie },
    redirect: 'manual',
  });
  const html = await res.text();
  const cookies = [sessionCookie, ...res.headers.getSetCookie().map((c) => c.split(';')[0]!)].join('; ');
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields.set(
      name!,
      value!
        .replace(/&amp;/g, '&')
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"'),
    );
  return { status: res.status, html, cookies, fields };
}

describe('a client named by its metadata document (https URL as client_id)', () => {
  it('is shown by its document’s name, signs in with PKCE, and is fetched once then cached', async () => {
    const clientId = `${docsOrigin}/agent.json`;
    const verifier = oauth.generateRandomCodeVerifier();
    const page = await consent(clientId, await oauth.calculatePKCECodeChallenge(verifier));
    expect(page.status, page.html.slice(0, 500)).toBe(200);
    expect(page.html).toContain('Doc &lt;b&gt;Agent&lt;/b&gt; wants to use Sitewright as you');
    expect(page.html).toContain('https://agent.example');
    expect(page.html).toContain('127.0.0.1:8976');
    expect(fetched.filter((u) => u === '/agent.json')).toHaveLength(1);

    page.fields.set('org_id', /<option value="([^"]+)"/.exec(page.html)![1]!);
    page.fields.set('decision', 'allow');
    const approved = await fetch(`${server.url}/oauth/authorize`, {
      method: 'POST',
      headers: { cookie: page.cookies, 'content-type': 'application/x-www-form-urlencoded' },
      body: page.fields.toString(),
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
    const back = new URL(approved.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(callback);
    expect(back.searchParams.get('iss')).toBe(server.url);

    // The token endpoint, as a standards client library calls it, with the URL as client_id.
    const as = await oauth.processDiscoveryResponse(
      new URL(server.url),
      await oauth.discoveryRequest(new URL(server.url), {
        algorithm: 'oauth2',
        [oauth.allowInsecureRequests]: true,
      }),
    );
    const client: oauth.Client = { client_id: clientId };
    const params = oauth.validateAuthResponse(as, client, back, 's1');
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      callback,
      verifier,
      { additionalParameters: { resource: `${server.url}/api/mcp` }, [oauth.allowInsecureRequests]: true },
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.access_token).toBeTruthy();
    const call = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
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
    expect(call.status).toBe(200);
    expect(await call.text()).toContain('"projects":[]');

    // A second sign-in within the hour reads the stored document: no new fetch.
    expect(
      (await consent(clientId, await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier())))
        .status,
    ).toBe(200);
    expect(fetched.filter((u) => u === '/agent.json')).toHaveLength(1);
  }, 30_000);

  it('refuses a document that names another client, is not a JSON object, holds a NUL or is not there, with a clear page', async () => {
    const challenge = createHash('sha256').update(randomBytes(32)).digest('base64url');
    const cases: [string, string][] = [
      ['/impostor.json', 'names another client_id'],
      ['/broken.json', 'is not JSON'],
      ['/null.json', 'is not a JSON object'],
      ['/nul-name.json', 'client_name must not contain NUL characters'],
      ['/missing.json', 'answered 404'],
    ];
    for (const [path, message] of cases) {
      const page = await consent(`${docsOrigin}${path}`, challenge);
      expect(page.status, path).toBe(400);
      expect(page.html, path).toContain(message);
    }
    // A client_id that is a URL without the guard's permission (an http one) is unknown.
    const plain = await consent(`http://127.0.0.1:1/agent.json`, challenge);
    expect(plain.status).toBe(400);
  }, 30_000);

  it('gives up on a document that takes longer than 5 s in all, however steadily it arrives', async () => {
    const challenge = createHash('sha256').update(randomBytes(32)).digest('base64url');
    const started = Date.now();
    const page = await consent(`${docsOrigin}/slow.json`, challenge);
    const took = Date.now() - started;
    expect(page.status).toBe(400);
    expect(page.html).toContain('the client metadata document did not arrive within 5 s');
    expect(took).toBeGreaterThanOrEqual(4_900);
    expect(took).toBeLessThan(7_000);
  }, 30_000);
});
