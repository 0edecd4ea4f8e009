// The MCP server over real HTTP with the SDK's own client, for the 2025-06-18 and 2025-11-25
// revisions and the current one (2026-07-28, which the client finds by server/discover): the
// handshake and the tool list without a token; every tool with an API key (happy path, a
// validation error, another organization's id, a read-only key on a writing tool); the 401
// challenge, the manifest and the protected-resource metadata; Origin checks; the shared quota.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { useLoopback, useTestApi } from '../helpers/app.ts';
import { createClient, createProject, createTemplate } from '../helpers/fixtures.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test', RATE_LIMIT_QUOTA: '1000' });
const server = useLoopback(api);

/** A client of the given revisions; `modern` lets it negotiate the 2026 revision (server/discover). */
async function connect(key: string | null, versions?: string[], modern = false) {
  const transport = new StreamableHTTPClientTransport(
    new URL(`${server.url}/api/mcp`),
    key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : {},
  );
  const client = new Client(
    { name: 'sitewright-test', version: '1.0.0' },
    {
      ...(versions ? { supportedProtocolVersions: versions } : {}),
      ...(modern ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  await client.connect(transport);
  expect(client.getNegotiatedProtocolVersion()).toBe(modern ? '2026-07-28' : (versions?.[0] ?? '2025-11-25'));
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as any;

describe.each([
  ['2025-06-18', ['2025-06-18'], false],
  ['2025-11-25 (the SDK client’s default)', undefined, false],
  ['2026-07-28 (the current revision, negotiated by discovery)', undefined, true],
])('MCP at /api/mcp, %s', (_label, versions, modern) => {
  it('answers the handshake and lists the tools without a token; a tool call without one is a 401 challenge', async () => {
    const client = await connect(null, versions, modern);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'list_projects',
        'get_project',
        'create_project',
        'update_project',
        'list_clients',
        'create_client',
        'list_templates',
        'generate_site',
        'get_generation',
        'publish_project',
        'unpublish_project',
        'get_preview_link',
        'list_domains',
        'add_domain',
        'verify_domain',
        'remove_domain',
        'get_analytics',
        'list_form_submissions',
        'create_build_link',
      ]),
    );
    expect(tools.length).toBeLessThanOrEqual(25);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(tool.title && tool.description && tool.inputSchema && tool.outputSchema, tool.name).toBeTruthy();
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
    }
    await expect(client.callTool({ name: 'list_projects', arguments: {} })).rejects.toThrow();
    await client.close();
  });

  it('runs every tool with a key, in the key’s organization, with the REST API’s rules', async () => {
    const client = await connect(api.key, versions, modern);
    const owner = await createClient(api);
    const created = await call(client, 'create_project', { client_email: owner.email, name: 'Moon Cafe' });
    expect(created.isError).toBeFalsy();
    const project = created.structuredContent.project;
    expect(created.structuredContent.builder_url).toBe(
      `${api.ctx.config.publicUrl}/app/projects/${project.id}`,
    );
    expect(
      (await call(client, 'get_project', { project_id: project.id })).structuredContent.project.name,
    ).toBe('Moon Cafe');
    expect(
      (await call(client, 'update_project', { project_id: project.id, tags: ['cafe'] })).structuredContent
        .project.tags,
    ).toEqual(['cafe']);
    const listed = (await call(client, 'list_projects', { q: 'Moon' })).structuredContent;
    expect(listed).toMatchObject({ total: 1, next_offset: null });
    expect(
      (await call(client, 'list_clients', {})).structuredContent.clients.map((c: any) => c.email),
    ).toContain(owner.email);
    expect(
      (await call(client, 'create_client', { email: `mcp-${Math.random()}@example.com` })).structuredContent
        .client.status,
    ).toBe('invited');
    await createTemplate(api, { is_public: true });
    expect((await call(client, 'list_templates', {})).structuredContent.total).toBe(1);

    const generation = (
      await call(client, 'generate_site', { project_id: project.id, prompt: 'A cafe in Leeds' })
    ).structuredContent.generation;
    expect(generation.status).toBe('queued');
    expect(
      (await call(client, 'get_generation', { project_id: project.id, generation_id: generation.id }))
        .structuredContent.generation.id,
    ).toBe(generation.id);
    await api.put(`/api/v1/projects/${project.id}/files/index.html`, { content: '<h1>Moon</h1>' });
    expect(
      (await call(client, 'publish_project', { project_id: project.id })).structuredContent.published.url,
    ).toMatch(/sites\.test/);
    expect(
      (await call(client, 'get_preview_link', { project_id: project.id })).structuredContent.preview
        .preview_url,
    ).toMatch(/^http:\/\/preview\.sites\.test\//);
    expect(
      (await call(client, 'unpublish_project', { project_id: project.id })).structuredContent.project
        .published_url,
    ).toBeNull();
    const domain = (
      await call(client, 'add_domain', { project_id: project.id, domain: 'www.moon-cafe.co.uk' })
    ).structuredContent.domain;
    expect(domain.dns_records.length).toBeGreaterThan(0);
    expect(
      (await call(client, 'list_domains', { project_id: project.id })).structuredContent.domains,
    ).toHaveLength(1);
    expect(
      (await call(client, 'remove_domain', { project_id: project.id, domain_id: domain.id }))
        .structuredContent,
    ).toEqual({ deleted: true, id: domain.id });
    expect(
      (await call(client, 'get_analytics', { days: 7, project_id: project.id })).structuredContent.analytics
        .totalViews,
    ).toBe(0);
    expect(
      (await call(client, 'list_form_submissions', { project_id: project.id })).structuredContent,
    ).toMatchObject({ submissions: [], total: 0 });
    const link = (await call(client, 'create_build_link', { prompt: 'A bakery' })).structuredContent.url;
    expect(new URL(link).searchParams.get('org')).toBe(api.org.id);

    // The REST API's refusals, as tool errors with the same message.
    const invalid = await call(client, 'create_project', { client_email: owner.email, name: '' });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toMatch(/name/);
    expect((await call(client, 'list_projects', { limit: 500 })).isError).toBe(true);
    const other = await api.newOrg();
    const foreign = await createProject(
      api,
      { client_email: (await createClient(api, {}, other.key)).email, name: 'Theirs' },
      other.key,
    );
    const hidden = await call(client, 'get_project', { project_id: foreign.id });
    expect(hidden).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Project not found' }] });
    expect((await call(client, 'get_project', { project_id: 'nope' })).isError).toBe(true);
    // A tool that does not exist: the SDK's own answer, whatever tools a request's server holds.
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message,
    );
    expect(unknown).toMatch(/Tool no_such_tool not found/);
    await client.close();
  });

  it('refuses a writing tool to a read-only key (403 insufficient_scope) and lets it read', async () => {
    const client = await connect(api.readKey, versions, modern);
    expect((await call(client, 'list_projects', {})).isError).toBeFalsy();
    await expect(
      client.callTool({ name: 'create_client', arguments: { email: 'ro@example.com' } }),
    ).rejects.toThrow();
    await client.close();
  });
});

describe('the HTTP side of /api/mcp', () => {
  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it('challenges a tool call without a valid token, and names the scope a read-only key lacks', async () => {
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'list_projects', arguments: {} },
    };
    // An embed key opens embed sessions and is no credential here.
    const embedKey = (await api.ctx.services.orgs.createKey(api.org.id, ['embed'], 'embed')).key;
    for (const headers of [
      {},
      { authorization: 'Bearer wk_not_a_key' },
      { authorization: 'Basic abc' },
      { authorization: `Bearer ${embedKey}` },
    ] as Record<string, string>[]) {
      const res = await rpc(call, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${api.ctx.config.publicUrl}/.well-known/oauth-protected-resource/api/mcp", scope="mcp"`,
      );
      expect(await res.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { message: expect.stringMatching(/Authentication required/) },
      });
    }
    const write = await rpc(
      { ...call, params: { name: 'create_client', arguments: { email: 'x@example.com' } } },
      { authorization: `Bearer ${api.readKey}` },
    );
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
  });

  it('answers a body it cannot read with a JSON-RPC error, as the SDK words it', async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/api/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${api.key}`,
          ...headers,
        },
        body,
      });
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":', '']) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: Invalid JSON' },
      });
    }
    const large = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_projects', arguments: { q: 'x'.repeat(1_100_000) } },
      }),
    );
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/^Payload Too Large/) },
    });
    const text = await post('hello', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('refuses a browser origin it does not know and a host that is not the service’s', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    expect((await rpc(list, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await rpc(list, { origin: new URL(api.ctx.config.publicUrl).origin })).status).not.toBe(403);
    // A page of the very origin the request goes to (here loopback) is the service's own; another
    // port of the same host is another origin.
    expect((await rpc(list, { origin: server.url })).status).not.toBe(403);
    expect(
      (await rpc(list, { origin: `http://127.0.0.1:${Number(new URL(server.url).port) + 1}` })).status,
    ).toBe(403);
    // A DNS-rebinding page reaches the server under its own name: refused by Host.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.url}/api/mcp`,
        {
          method: 'POST',
          headers: {
            host: 'attacker.example',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(list));
    });
    expect(rebound).toBe(403);
  });

  it('serves the manifest and the protected-resource metadata without a token', async () => {
    const manifest = await (await fetch(`${server.url}/.well-known/mcp`)).json();
    expect(manifest).toMatchObject({
      name: 'sitewright',
      endpoint: `${api.ctx.config.publicUrl}/api/mcp`,
      transport: 'streamable-http',
    });
    expect(manifest.protocol_versions).toEqual(expect.arrayContaining(['2025-06-18', '2025-11-25']));
    expect(manifest.tools.map((t: any) => t.name)).toContain('generate_site');
    const metadata = await (await fetch(`${server.url}/.well-known/oauth-protected-resource/api/mcp`)).json();
    expect(metadata).toMatchObject({
      resource: `${api.ctx.config.publicUrl}/api/mcp`,
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('an OAuth grant of a client’s own account', () => {
  it('sees that client’s projects only, and none of the agency’s tools', async () => {
    const mine = await createClient(api);
    const other = await createClient(api);
    const own = await createProject(api, { client_email: mine.email, name: 'Mine' });
    const theirs = await createProject(api, { client_email: other.email, name: 'Theirs' });
    const { ctx } = api;
    const row = await ctx.database.db
      .selectFrom('clients')
      .select('user_id')
      .where('id', '=', mine.id)
      .executeTakeFirstOrThrow();
    await ctx.services.accounts.createUser({
      id: row.user_id,
      email: mine.email,
      password: 'a long enough password',
      name: null,
    });
    const registered = await ctx.services.oauth.clients.register({
      redirect_uris: ['http://127.0.0.1/cb'],
      client_name: 'Agent',
    });
    const verifier = 'v'.repeat(64);
    const resource = `${new URL(ctx.config.publicUrl).origin}/api/mcp`;
    const auth = await ctx.services.oauth.checkAuthorization({
      client_id: registered.clientId,
      redirect_uri: 'http://127.0.0.1/cb',
      response_type: 'code',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource,
    });
    const code = await ctx.services.oauth.approve(auth, {
      userId: row.user_id,
      orgId: api.org.id,
      orgClientId: mine.id,
    });
    const tokens = await ctx.services.oauth.exchangeCode({
      code,
      client_id: registered.clientId,
      redirect_uri: 'http://127.0.0.1/cb',
      code_verifier: verifier,
      resource,
    });

    const client = await connect(tokens.access_token);
    const listed = (await call(client, 'list_projects', {})).structuredContent;
    expect(listed.projects.map((p: any) => p.id)).toEqual([own.id]);
    expect((await call(client, 'get_project', { project_id: own.id })).structuredContent.project.name).toBe(
      'Mine',
    );
    expect(await call(client, 'get_project', { project_id: theirs.id })).toMatchObject({
      isError: true,
      content: [{ text: 'Project not found' }],
    });
    expect((await call(client, 'list_clients', {})).isError).toBe(true);
    expect((await call(client, 'get_analytics', {})).isError).toBe(true);
    await client.close();
    // As a connector token: the same projects on GET /api/v1/projects, and nothing else of the API.
    const res = await fetch(`${server.url}/api/v1/projects`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect((await res.json()).projects.map((p: any) => p.id)).toEqual([own.id]);
    expect(
      (
        await fetch(`${server.url}/api/v1/projects/${own.id}`, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        })
      ).status,
    ).toBe(401);
    // A suspended client: its grant ends.
    await api.request('PATCH', `/api/v1/clients/${mine.id}`, { status: 'suspended' });
    expect(
      (
        await fetch(`${server.url}/api/v1/projects`, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        })
      ).status,
    ).toBe(401);
  });
});
