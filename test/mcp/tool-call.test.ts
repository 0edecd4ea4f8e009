// One plain tool call, of the 2025 revisions or of the 2026 one, is answered without an SDK server
// (src/mcp/tool-call.ts). These tests hold that answer to the SDK's: the same call is posted twice
// over real HTTP, once as an agent sends it (answered by tool-call.ts) and once with a `_meta` key
// of no meaning to the protocol, which takes it through the SDK's handler; status, headers and
// body must be the same bytes, for every tool, with good arguments, bad ones and another
// organization's ids, in both eras. And which requests take that path at all.
import { describe, expect, it } from 'vitest';
import { toolCallOf } from '../../src/mcp/tool-call.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { useLoopback, useTestApi } from '../helpers/app.ts';
import { createClient, createProject, createTemplate } from '../helpers/fixtures.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test', RATE_LIMIT_QUOTA: '100000' });
const server = useLoopback(api);

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};
/** What a client of the 2026 revision sends in every request's `_meta`. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test-agent', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modernHeaders = (name: string) => ({
  ...HEADERS,
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': name,
});
const call = (name: string, args: unknown, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

type Era = 'legacy' | 'modern';
/** A `_meta` key that tool-call.ts leaves to the SDK's handler, and that changes nothing of the answer. */
const SDK_ROUTE = { 'test.sitewright/route': 'sdk' };

/** The call as a client of the era sends it; `meta` is added to its `_meta` (the envelope, in the 2026 revision). */
function request(
  era: Era,
  name: string,
  args: unknown,
  id: string | number = 1,
  meta?: Record<string, unknown>,
) {
  const envelope = era === 'modern' ? ENVELOPE : undefined;
  const _meta = envelope || meta ? { ...envelope, ...meta } : undefined;
  return {
    headers: era === 'modern' ? modernHeaders(name) : HEADERS,
    body: { ...call(name, args, id), params: { name, arguments: args, ...(_meta ? { _meta } : {}) } },
  };
}

async function post({ headers, body }: { headers: Record<string, string>; body: unknown }, key: string) {
  const res = await fetch(`${server.url}/api/mcp`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const answerHeaders = Object.fromEntries(
    ['content-type', 'cache-control', 'x-accel-buffering'].map((name) => [name, res.headers.get(name)]),
  );
  return { status: res.status, headers: answerHeaders, text };
}

/** The JSON-RPC answer in a body of either era. */
const answerIn = (text: string) => JSON.parse(text.replace(/^event: message\ndata: /, ''));

describe.each<Era>(['legacy', 'modern'])('a tool call answered without an SDK server (%s era)', (era) => {
  /** The answer through tool-call.ts and the SDK's answer to the same call. */
  async function bothWays(name: string, args: unknown, key = api.key, id: string | number = 1) {
    const direct = await post(request(era, name, args, id), key);
    const viaSdk = await post(request(era, name, args, id, SDK_ROUTE), key);
    return { direct, viaSdk };
  }

  it('answers every tool as the SDK does: good arguments, bad ones, unknown ids, another organization’s', async () => {
    const owner = await createClient(api);
    const project = await createProject(api, { client_email: owner.email, name: 'Moon Cafe' });
    await createTemplate(api, { is_public: true });
    const other = await api.newOrg();
    const foreign = await createProject(
      api,
      { client_email: (await createClient(api, {}, other.key)).email, name: 'Theirs' },
      other.key,
    );
    const missing = '01a21501-4d68-7598-9df0-312a96db0eac';

    let compared = 0;
    const toolsCompared = new Set<string>();
    for (const tool of TOOLS) {
      const keys = Object.keys(tool.input.shape);
      const cases: unknown[] = [
        {},
        undefined,
        // A wrong type for every argument: an object is none of strings, numbers, enums or lists.
        Object.fromEntries(keys.map((key) => [key, { wrong: true }])),
        {
          ...Object.fromEntries(keys.filter((k) => k.endsWith('_id')).map((k) => [k, foreign.id])),
          project_id: foreign.id,
        },
        {
          ...Object.fromEntries(keys.filter((k) => k.endsWith('_id')).map((k) => [k, missing])),
          project_id: missing,
        },
        { project_id: 'not-a-uuid', limit: 500 },
      ];
      if (tool.annotations.readOnlyHint)
        cases.push(
          { project_id: project.id },
          { project_id: project.id, unknown_argument: 'ignored', limit: 1 },
        );
      for (const args of cases) {
        const { direct, viaSdk } = await bothWays(tool.name, args);
        const answer = answerIn(direct.text);
        // A writing tool that succeeded made something new each time: the two answers differ.
        if (!tool.annotations.readOnlyHint && !answer.result?.isError) continue;
        expect(direct, `${tool.name} ${JSON.stringify(args)}`).toEqual(viaSdk);
        compared++;
        toolsCompared.add(tool.name);
      }
    }
    expect(toolsCompared).toEqual(new Set(TOOLS.map((t) => t.name)));
    expect(compared).toBeGreaterThan(TOOLS.length * 5);
  });

  it('answers writing tools that succeed in the SDK’s shape: the same keys, in the same order, of the same types', async () => {
    const owner = await createClient(api);
    const project = await createProject(api, { client_email: owner.email, name: 'Star Bakery' });
    await api.put(`/api/v1/projects/${project.id}/files/index.html`, { content: '<h1>Star</h1>' });
    let n = 0;
    const writes: [string, () => Record<string, unknown>][] = [
      ['create_project', () => ({ client_email: owner.email, name: `Site ${++n}` })],
      ['update_project', () => ({ project_id: project.id, tags: ['bakery', `t${++n}`] })],
      ['create_client', () => ({ email: `shape-${era}-${++n}-${process.pid}@example.com` })],
      ['generate_site', () => ({ project_id: project.id, prompt: `A bakery in Leeds ${++n}` })],
      ['publish_project', () => ({ project_id: project.id })],
      ['unpublish_project', () => ({ project_id: project.id })],
      ['add_domain', () => ({ project_id: project.id, domain: `www.star-${era}-${++n}.example.com` })],
      ['create_build_link', () => ({ prompt: 'A bakery' })],
    ];
    // Every leaf replaced by its type: what differs between two successful writes is values.
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(shape)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
          : value === null
            ? 'null'
            : typeof value;
    const answerOf = (text: string) => {
      const answer = answerIn(text);
      return {
        ...answer,
        result: {
          ...answer.result,
          content: answer.result.content.map((c: { text: string }) => ({
            ...c,
            text: shape(JSON.parse(c.text)),
          })),
        },
      };
    };
    for (const [name, args] of writes) {
      const direct = await post(request(era, name, args()), api.key);
      const viaSdk = await post(request(era, name, args(), 1, SDK_ROUTE), api.key);
      expect(answerOf(direct.text).result.isError, `${name}: ${direct.text}`).toBeUndefined();
      expect(JSON.stringify(shape(answerOf(direct.text))), name).toBe(
        JSON.stringify(shape(answerOf(viaSdk.text))),
      );
      expect({ ...direct, text: '' }).toEqual({ ...viaSdk, text: '' });
    }
  });

  // In the 2026 revision a progress token beside the envelope goes to the SDK.
  if (era === 'legacy') {
    it('answers a call with a progress token as the SDK does: the result alone (no tool reports progress)', async () => {
      for (const progressToken of ['p-1', 7]) {
        const direct = await post(request(era, 'list_projects', { limit: 1 }, 1, { progressToken }), api.key);
        const viaSdk = await post(
          request(era, 'list_projects', { limit: 1 }, 1, { ...SDK_ROUTE, progressToken }),
          api.key,
        );
        expect(direct).toEqual(viaSdk);
      }
    });
  }

  it('answers under the caller’s own id, string or number, in the era’s framing', async () => {
    for (const id of ['req-1', 0, 42]) {
      const { direct, viaSdk } = await bothWays('list_projects', { limit: 1 }, api.key, id);
      expect(direct).toEqual(viaSdk);
      expect(direct.status).toBe(200);
      if (era === 'legacy') {
        expect(direct.headers['content-type']).toBe('text/event-stream');
        expect(direct.text).toMatch(
          new RegExp(
            `^event: message\\ndata: \\{"result":.*"jsonrpc":"2\\.0","id":${JSON.stringify(id)}\\}\\n\\n$`,
          ),
        );
      } else {
        expect(direct.headers['content-type']).toMatch(/^application\/json/);
        expect(answerIn(direct.text)).toMatchObject({
          result: {
            resultType: 'complete',
            _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'sitewright' } },
          },
          jsonrpc: '2.0',
          id,
        });
      }
    }
  });

  it('keeps concurrent calls apart: each answer is its own call’s', async () => {
    const owner = await createClient(api);
    const projects = await Promise.all(
      ['One', 'Two', 'Three', 'Four'].map((name) => createProject(api, { client_email: owner.email, name })),
    );
    const answers = await Promise.all(
      projects.map((p) => post(request(era, 'get_project', { project_id: p.id }), api.key)),
    );
    answers.forEach((answer, i) =>
      expect(answerIn(answer.text).result.structuredContent.project.name).toBe(projects[i].name),
    );
  });
});

describe('which requests it answers', () => {
  const ok = call('get_project', { project_id: 'x' });
  const modern = request('modern', 'get_project', { project_id: 'x' });
  const withMeta = (meta: Record<string, unknown>) => ({
    ...modern.body,
    params: { ...modern.body.params, _meta: meta },
  });
  it('a single tools/call of a tool that exists, of the 2025 era, with the headers the SDK asks for', () => {
    expect(toolCallOf('POST', HEADERS, ok)).toMatchObject({
      id: 1,
      tool: { name: 'get_project' },
      args: { project_id: 'x' },
      era: 'legacy',
    });
    expect(toolCallOf('POST', { ...HEADERS, 'mcp-protocol-version': undefined }, ok)).toBeDefined();
    expect(toolCallOf('POST', { ...HEADERS, 'mcp-protocol-version': '2025-11-25' }, ok)).toBeDefined();
    expect(
      toolCallOf('POST', { ...HEADERS, 'content-type': 'application/json; charset=utf-8' }, ok),
    ).toBeDefined();
    expect(toolCallOf('POST', HEADERS, { ...ok, params: { name: 'list_projects' } })).toMatchObject({
      args: undefined,
    });
    expect(
      toolCallOf('POST', HEADERS, { ...ok, params: { ...ok.params, _meta: { progressToken: 'p' } } }),
    ).toBeDefined();
  });

  it('leaves everything else to the SDK', () => {
    const others: [string, string, Record<string, string | undefined>, unknown][] = [
      ['GET', 'another HTTP method', HEADERS, ok],
      ['POST', 'a batch', HEADERS, [ok]],
      ['POST', 'a notification', HEADERS, { jsonrpc: '2.0', method: 'notifications/initialized' }],
      ['POST', 'another method', HEADERS, { ...ok, method: 'tools/list' }],
      ['POST', 'a tool that does not exist', HEADERS, call('no_such_tool', {})],
      [
        'POST',
        '_meta with more than a progress token',
        HEADERS,
        {
          ...ok,
          params: {
            ...ok.params,
            _meta: { progressToken: 1, 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
          },
        },
      ],
      [
        'POST',
        'a progress token that is not a string or an integer',
        HEADERS,
        { ...ok, params: { ...ok.params, _meta: { progressToken: 1.5 } } },
      ],
      ['POST', 'another params key', HEADERS, { ...ok, params: { ...ok.params, task: {} } }],
      ['POST', 'arguments that are not an object', HEADERS, call('get_project', ['x'])],
      ['POST', 'an id that is not an integer', HEADERS, { ...ok, id: 1.5 }],
      ['POST', 'no id', HEADERS, { jsonrpc: '2.0', method: 'tools/call', params: ok.params, x: 1 }],
      ['POST', 'another JSON-RPC version', HEADERS, { ...ok, jsonrpc: '1.0' }],
      ['POST', 'an Accept without SSE', { ...HEADERS, accept: 'application/json' }, ok],
      ['POST', 'another content type', { ...HEADERS, 'content-type': 'text/plain' }, ok],
      [
        'POST',
        'the 2026 header without its envelope',
        { ...HEADERS, 'mcp-protocol-version': '2026-07-28' },
        ok,
      ],
      ['POST', 'an unknown revision', { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }, ok],
      ['POST', 'the 2026 method header', { ...HEADERS, 'mcp-method': 'tools/call' }, ok],
      ['POST', 'the 2026 envelope under a 2025 header', HEADERS, modern.body],
    ];
    for (const [method, what, headers, body] of others)
      expect(toolCallOf(method, headers, body), what).toBeUndefined();
  });

  it('a tool call of the 2026 revision whose headers name it and whose _meta is its envelope', () => {
    expect(toolCallOf('POST', modern.headers, modern.body)).toMatchObject({
      id: 1,
      tool: { name: 'get_project' },
      args: { project_id: 'x' },
      era: 'modern',
    });
    const titled = {
      ...ENVELOPE,
      'io.modelcontextprotocol/clientInfo': { name: 'agent', title: 'Agent', version: '2' },
      'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: {} },
    };
    expect(toolCallOf('POST', modern.headers, withMeta(titled))).toMatchObject({ era: 'modern' });
  });

  it('leaves any other request of the 2026 revision to the SDK: other headers, more in _meta, an envelope the SDK refuses', () => {
    const { 'io.modelcontextprotocol/clientInfo': _clientInfo, ...noClientInfo } = ENVELOPE;
    const others: [string, Record<string, string | undefined>, unknown][] = [
      ['no Mcp-Method header', { ...modern.headers, 'mcp-method': undefined }, modern.body],
      ['another method in Mcp-Method', { ...modern.headers, 'mcp-method': 'tools/list' }, modern.body],
      ['no Mcp-Name header', { ...modern.headers, 'mcp-name': undefined }, modern.body],
      ['another tool in Mcp-Name', { ...modern.headers, 'mcp-name': 'list_projects' }, modern.body],
      [
        'no MCP-Protocol-Version header',
        { ...modern.headers, 'mcp-protocol-version': undefined },
        modern.body,
      ],
      ['a 2025 header', { ...modern.headers, 'mcp-protocol-version': '2025-11-25' }, modern.body],
      ['no envelope', modern.headers, call('get_project', { project_id: 'x' })],
      ['an envelope without clientInfo', modern.headers, withMeta(noClientInfo)],
      [
        'another version in the envelope',
        modern.headers,
        withMeta({ ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }),
      ],
      [
        'a clientInfo the SDK refuses',
        modern.headers,
        withMeta({ ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 7 } }),
      ],
      [
        'capabilities that are not an object',
        modern.headers,
        withMeta({ ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': 'all' }),
      ],
      ['a progress token besides the envelope', modern.headers, withMeta({ ...ENVELOPE, progressToken: 1 })],
      [
        'trace context besides the envelope',
        modern.headers,
        withMeta({ ...ENVELOPE, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }),
      ],
    ];
    for (const [what, headers, body] of others)
      expect(toolCallOf('POST', headers, body), what).toBeUndefined();
  });
});
