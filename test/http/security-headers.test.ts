// Security headers outside the pages: every answer of the REST API, the MCP server, the OAuth
// endpoints and the metadata under /.well-known carries nosniff and the policy of a data answer,
// refusals and unknown paths included; the fallback 404 page carries the pages' policy; HSTS when
// PUBLIC_URL is https, none on plain http. The pages keep helmet's own policy.
import { describe, expect, it } from 'vitest';
import { useTestApi, type TestApi } from '../helpers/app.ts';

const JSON_POLICY = "default-src 'none'; frame-ancestors 'none'";
const HSTS = 'max-age=31536000; includeSubDomains';
const PAGE_POLICY =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;connect-src 'self';" +
  "font-src 'self';object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'";

const secure = useTestApi({ PUBLIC_URL: 'https://sitewright.test' });
const plain = useTestApi();

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Requests of every way in that answers data: successes, refusals and unknown paths. */
function dataRequests(api: TestApi) {
  const auth = { authorization: `Bearer ${api.key}` };
  const rpc = (body: unknown, headers: Record<string, string> = {}) => ({
    method: 'POST' as const,
    url: '/api/mcp',
    headers: { ...MCP_HEADERS, ...headers },
    payload: JSON.stringify(body),
  });
  return [
    { method: 'GET' as const, url: '/api/v1/clients?limit=5', headers: auth },
    { method: 'GET' as const, url: '/api/v1/clients', headers: auth },
    { method: 'GET' as const, url: '/api/v1/clients' },
    { method: 'GET' as const, url: '/api/v1/docs' },
    { method: 'GET' as const, url: '/api/v1/no-such-thing', headers: auth },
    { method: 'GET' as const, url: '/api/v1/clients/%zz', headers: auth },
    { method: 'GET' as const, url: '/api/no-such-thing' },
    rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_projects', arguments: {} } }),
    rpc(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_projects', arguments: {} } },
      auth,
    ),
    {
      ...rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      headers: { ...MCP_HEADERS, host: 'evil.example' },
    },
    { method: 'GET' as const, url: '/.well-known/mcp' },
    { method: 'GET' as const, url: '/.well-known/oauth-protected-resource/api/mcp' },
    { method: 'GET' as const, url: '/.well-known/oauth-authorization-server' },
    {
      method: 'POST' as const,
      url: '/oauth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ redirect_uris: ['https://agent.example/cb'] }),
    },
    {
      method: 'POST' as const,
      url: '/oauth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    },
    { method: 'POST' as const, url: '/oauth/token', headers: FORM, payload: 'grant_type=password' },
    { method: 'POST' as const, url: '/oauth/revoke', headers: FORM, payload: 'token=nothing' },
  ];
}

describe.each([
  ['https', secure, HSTS],
  ['http', plain, undefined],
] as const)('on %s', (_scheme, api, hsts) => {
  it('every data answer carries nosniff and a policy that lets nothing load or frame it', async () => {
    for (const request of dataRequests(api)) {
      const res = await api.app.inject(request);
      const what = `${request.method} ${request.url} (${res.statusCode})`;
      expect(res.headers['x-content-type-options'], what).toBe('nosniff');
      expect(res.headers['content-security-policy'], what).toBe(JSON_POLICY);
      expect(res.headers['strict-transport-security'], what).toBe(hsts);
    }
  });

  it('the fallback 404 page carries the pages’ policy', async () => {
    for (const url of ['/no-such-page', '/oauth/no-such-endpoint', '/.well-known/no-such-document']) {
      const res = await api.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy'], url).toBe(PAGE_POLICY);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['strict-transport-security'], url).toBe(hsts);
    }
  });

  it('the pages keep helmet’s policy, the consent page among them', async () => {
    for (const url of ['/sign-in', '/oauth/authorize?client_id=x']) {
      const res = await api.app.inject({ method: 'GET', url });
      const policy = String(res.headers['content-security-policy']);
      expect(policy, url).toContain("script-src 'self'");
      expect(policy, url).toContain('frame-src ');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['strict-transport-security'], url).toBe(hsts);
    }
  });
});
