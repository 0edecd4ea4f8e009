// What a tool call may not get through, as an agent sends it and with a `_meta` key of no meaning
// (both answered by the SDK's handler), on both engines: a NUL in any argument is a tool error
// naming it (the REST API's rule; on PostgreSQL it reached the database as a 500-like driver
// error); a failure that is not a domain refusal is logged with the request id and answered
// "Internal error", never with the driver's words. And what an OAuth grant acts as: a client's
// own account lists only the public templates, and a generation made through a grant records the
// person as its author.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildServer } from '../../src/main.ts';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject, createTemplate } from '../helpers/fixtures.ts';
import { logCollector } from '../helpers/log-lines.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test' });
const { lines, stream } = logCollector();
let app: FastifyInstance;

beforeAll(async () => {
  // The same container, served by an app that logs, to read what a failed tool wrote.
  app = await buildServer(api.ctx, pino({ level: 'info' }, stream));
});
afterAll(async () => {
  await app?.close();
});

type Way = 'direct' | 'sdk';
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** One tools/call; `sdk` adds a `_meta` key of no meaning to the protocol (it changes no answer). */
async function callTool(
  way: Way,
  token: string,
  name: string,
  args: Record<string, unknown>,
  requestId = `req-${Math.random()}`,
) {
  const params = {
    name,
    arguments: args,
    ...(way === 'sdk' ? { _meta: { 'test.sitewright/route': 'sdk' } } : {}),
  };
  const res = await app.inject({
    method: 'POST',
    url: '/api/mcp',
    headers: { ...HEADERS, authorization: `Bearer ${token}`, 'x-request-id': requestId },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body.replace(/^event: message\ndata: /, '')).result as {
    isError?: boolean;
    content: { text: string }[];
    structuredContent?: any;
  };
}

/** An OAuth access token of `userId` in the test's organization (of one client's account when `orgClientId`). */
async function grantToken(userId: string, orgClientId: string | null): Promise<string> {
  const { oauth } = api.ctx.services;
  const registered = await oauth.clients.register({
    redirect_uris: ['http://127.0.0.1/cb'],
    client_name: 'Agent',
  });
  const verifier = 'v'.repeat(64);
  const resource = `${new URL(api.ctx.config.publicUrl).origin}/api/mcp`;
  const auth = await oauth.checkAuthorization({
    client_id: registered.clientId,
    redirect_uri: 'http://127.0.0.1/cb',
    response_type: 'code',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource,
  });
  const code = await oauth.approve(auth, { userId, orgId: api.org.id, orgClientId });
  return (
    await oauth.exchangeCode({
      code,
      client_id: registered.clientId,
      redirect_uri: 'http://127.0.0.1/cb',
      code_verifier: verifier,
      resource,
    })
  ).access_token;
}

describe.each<Way>(['direct', 'sdk'])('a tool call (%s)', (way) => {
  it('refuses a NUL in any argument, naming it, before the tool runs', async () => {
    const owner = await createClient(api);
    const project = await createProject(api, { client_email: owner.email, name: 'Moon Cafe' });
    const cases: [string, Record<string, unknown>, string][] = [
      ['list_projects', { q: 'Moon\u0000' }, 'q'],
      ['list_clients', { q: '\u0000' }, 'q'],
      ['create_client', { email: 'nul@example.com', name: 'A\u0000' }, 'name'],
      ['update_project', { project_id: project.id, tags: ['ok', 'b\u0000'] }, 'tags[1]'],
      ['list_form_submissions', { project_id: project.id, form: 'contact\u0000' }, 'form'],
      ['generate_site', { project_id: project.id, prompt: 'A cafe\u0000' }, 'prompt'],
    ];
    for (const [name, args, field] of cases) {
      const result = await callTool(way, api.key, name, args);
      expect(result, name).toEqual({
        content: [{ type: 'text', text: `argument '${field}' must not contain a NUL character` }],
        isError: true,
      });
    }
    expect(
      (await api.ctx.services.clients.search(systemPrincipal(api.org.id), { q: 'nul@' }, 10, 0)).total,
    ).toBe(0);
    expect((await api.get(`/api/v1/projects/${project.id}`)).body.project.tags).toEqual([]);
  });

  it('answers a failure that is not a domain refusal with "Internal error", and logs it with the request id', async () => {
    const owner = await createClient(api);
    const project = await createProject(api, { client_email: owner.email, name: 'Moon Cafe' });
    const driverError = new Error('relation "projects" does not exist (host 10.9.8.7, user sitewright)');
    const spy = vi.spyOn(api.ctx.services.projects, 'get').mockRejectedValueOnce(driverError);
    try {
      const requestId = `tool-failure-${way}`;
      const result = await callTool(way, api.key, 'get_project', { project_id: project.id }, requestId);
      expect(result).toEqual({ content: [{ type: 'text', text: 'Internal error' }], isError: true });
      const logged = lines.filter((line) => line.reqId === requestId && line.msg === 'MCP tool failed');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({
        level: 50,
        tool: 'get_project',
        err: { message: driverError.message },
      });
    } finally {
      spy.mockRestore();
    }
    // A domain refusal keeps its own message, and is no error of the server's.
    const missing = await callTool(way, api.key, 'get_project', {
      project_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.content[0]!.text).toBe('Project not found');
  });
});

describe('an OAuth grant', () => {
  it('of a client’s own account lists the public templates only', async () => {
    const mine = await createClient(api);
    const row = await api.ctx.database.db
      .selectFrom('clients')
      .select('user_id')
      .where('id', '=', mine.id)
      .executeTakeFirstOrThrow();
    await api.ctx.services.accounts.createUser({
      id: row.user_id,
      email: mine.email,
      password: 'a long enough password',
      name: null,
    });
    const offered = await createTemplate(api, { name: 'Offered', is_public: true });
    await createTemplate(api, { name: 'Agency only' });
    const token = await grantToken(row.user_id, mine.id);
    for (const way of ['direct', 'sdk'] as Way[]) {
      const listed = (await callTool(way, token, 'list_templates', {})).structuredContent;
      expect(
        listed.templates.map((t: any) => t.id),
        way,
      ).toEqual([offered.id]);
      expect(listed.total, way).toBe(1);
    }
    // The agency's own key still sees every template.
    expect((await callTool('direct', api.key, 'list_templates', {})).structuredContent.total).toBe(2);
  });

  it('records the person it acts for as the author of a generation, as the pages do', async () => {
    const member = await api.ctx.services.accounts.createMember({
      email: `member-${Date.now()}@example.com`,
      password: 'a long enough password',
      name: 'Mia',
      orgId: api.org.id,
      role: 'member',
    });
    const owner = await createClient(api);
    const project = await createProject(api, { client_email: owner.email, name: 'Moon Cafe' });
    const token = await grantToken(member.id, null);
    for (const way of ['direct', 'sdk'] as Way[]) {
      const generation = (
        await callTool(way, token, 'generate_site', { project_id: project.id, prompt: 'A cafe in Leeds' })
      ).structuredContent.generation;
      const row = await api.ctx.database.db
        .selectFrom('generations')
        .select(['author_user_id', 'author_key_id'])
        .where('id', '=', generation.id)
        .executeTakeFirstOrThrow();
      expect(row, way).toEqual({ author_user_id: member.id, author_key_id: null });
      await api.ctx.services.generations.cancel(systemPrincipal(api.org.id), {
        projectId: project.id,
        generationId: generation.id,
      });
    }
  });
});
