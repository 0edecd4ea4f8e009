// Authentication, permissions, content types and the order of checks (401 -> 429 -> 403 -> 415 -> 400 -> 404).
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { generateApiKey } from '../../src/lib/keys.ts';

const api = useTestApi({ API_DEPRECATION: '@1893456000', API_SUNSET: 'Sun, 01 Jan 2034 00:00:00 GMT' });
const MISSING = '01a20225-2fef-73dd-be9d-af188b7b1886';

describe('authentication', () => {
  it('refuses a request without a key', async () => {
    const res = await api.get('/api/v1/clients', { key: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Missing API key: send "Authorization: Bearer wk_..."' });
    expect(res.headers['x-ratelimit-limit']).toBe('10000');
  });

  it.each([
    ['garbage', 'garbage'],
    ['a key with a wrong checksum', generateApiKey().slice(0, -1) + '0'],
    ['a well-formed key that was never issued', generateApiKey()],
  ])('refuses %s', async (_what, key) => {
    const res = await api.get('/api/v1/clients', { key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid or revoked API key' });
  });

  it('accepts the key without the Bearer word only as Bearer', async () => {
    const res = await api.request('GET', '/api/v1/clients', undefined, {
      key: null,
      headers: { authorization: `Basic ${api.key}` },
    });
    expect(res.status).toBe(401);
  });

  it('stops accepting a revoked key on the next request', async () => {
    expect((await api.get('/api/v1/clients')).status).toBe(200);
    const keys = await api.ctx.services.orgs.listKeys(api.org.id);
    const rw = keys.find((k) => k.name === 'rw')!;
    await api.ctx.services.orgs.revokeKey(rw.id);
    const res = await api.get('/api/v1/clients');
    expect(res.status).toBe(401);
    expect((await api.get('/api/v1/clients', { key: api.readKey })).status).toBe(200);
  });

  it('records when a key was last used', async () => {
    const before = (await api.ctx.services.orgs.listKeys(api.org.id)).find((k) => k.name === 'ro')!;
    expect(before.last_used_at).toBeNull();
    await api.get('/api/v1/clients', { key: api.readKey });
    const after = (await api.ctx.services.orgs.listKeys(api.org.id)).find((k) => k.name === 'ro')!;
    expect(Date.now() - Date.parse(after.last_used_at!)).toBeLessThan(10_000);
  });
});

describe('permissions', () => {
  it('a read-only key reads but cannot write, and nothing is written', async () => {
    expect((await api.get('/api/v1/clients', { key: api.readKey })).status).toBe(200);
    const res = await api.post('/api/v1/clients', { email: 'x@example.com' }, { key: api.readKey });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "This API key lacks the 'write' permission" });
    expect((await api.get('/api/v1/clients')).body.clients).toEqual([]);
  });

  it('a write-only key writes but cannot read', async () => {
    expect(
      (await api.post('/api/v1/clients', { email: 'w@example.com' }, { key: api.writeKey })).status,
    ).toBe(201);
    const res = await api.get('/api/v1/clients', { key: api.writeKey });
    expect(res.status).toBe(403);
    expect(res.body.error).toContain("'read'");
  });
});

describe('request bodies', () => {
  it('answers 415 for a write without a JSON content type', async () => {
    const res = await api.request('POST', '/api/v1/clients', undefined, {
      payload: 'email=a@b.co',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'Content-Type must be application/json' });
    const none = await api.request('PATCH', `/api/v1/clients/${MISSING}`, undefined, { payload: '{}' });
    expect(none.status).toBe(415);
  });

  it('accepts a charset on the JSON content type', async () => {
    const res = await api.request('POST', '/api/v1/clients', undefined, {
      payload: JSON.stringify({ email: 'cs@example.com' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  it('answers 400 for malformed JSON and for an empty JSON body', async () => {
    const bad = await api.request('POST', '/api/v1/clients', undefined, {
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Malformed JSON in request body' });
    const empty = await api.request('POST', '/api/v1/clients', undefined, {
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    const array = await api.post('/api/v1/clients', [{ email: 'a@b.co' }]);
    expect(array.status).toBe(400);
    expect(array.body.error).toBe('body must be object');
  });
});

describe('DELETE with a body', () => {
  it('refuses fields by name and deletes nothing; an empty object is no field', async () => {
    const created = (
      await api.post('/api/v1/webhooks', { url: 'https://hooks.example.com/in', events: ['client.created'] })
    ).body.webhook;
    const url = `/api/v1/webhooks/${created.id}`;
    const res = await api.request('DELETE', url, { dry_run: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "unknown field 'dry_run'" });
    expect((await api.get(url)).status).toBe(200);
    expect((await api.request('DELETE', url, [])).body).toEqual({
      error: 'This operation takes no request body',
    });
    expect((await api.request('DELETE', url, {})).body).toEqual({ deleted: true, id: created.id });
  });
});

describe('ids in upper case', () => {
  it('finds the record, as UUIDs are case-insensitive; a urn: prefix is no id', async () => {
    const client = (await api.post('/api/v1/clients', { email: 'upper@example.com' })).body.client;
    const project = (await api.post('/api/v1/projects', { name: 'Upper', client_email: 'upper@example.com' }))
      .body.project;
    const upper = (id: string) => id.toUpperCase();
    expect((await api.get(`/api/v1/clients/${upper(client.id)}`)).body.client).toEqual(client);
    expect((await api.patch(`/api/v1/clients/${upper(client.id)}`, { name: 'Up' })).body.client.name).toBe(
      'Up',
    );
    const listed = await api.get(`/api/v1/projects?client_id=${upper(client.id)}`);
    expect(listed.body.projects.map((p: { id: string }) => p.id)).toEqual([project.id]);
    expect((await api.get(`/api/v1/analytics?project_id=${upper(project.id)}&days=7`)).status).toBe(200);
    const plan = (await api.post('/api/v1/plans', { name: 'P', price: 1 })).body.plan;
    expect(
      (await api.patch(`/api/v1/clients/${client.id}`, { plan_id: upper(plan.id) })).body.client.plan_id,
    ).toBe(plan.id);

    const urn = await api.get(`/api/v1/clients/urn:uuid:${client.id}`);
    expect(urn.status).toBe(400);
    expect(urn.body.error).toBe("path parameter 'clientId' must be a valid uuid");
  });
});

describe('order of checks', () => {
  const badWrite = { payload: 'x', headers: { 'content-type': 'text/plain' } };
  it('401 before 403 before 415 before 400 before 404', async () => {
    expect(
      (await api.request('PATCH', '/api/v1/clients/zzz', undefined, { ...badWrite, key: 'wk_nope' })).status,
    ).toBe(401);
    expect(
      (await api.request('PATCH', '/api/v1/clients/zzz', undefined, { ...badWrite, key: api.readKey }))
        .status,
    ).toBe(403);
    expect((await api.request('PATCH', '/api/v1/clients/zzz', undefined, badWrite)).status).toBe(415);
    expect((await api.patch('/api/v1/clients/zzz', { name: 'n' })).status).toBe(400);
    expect((await api.patch(`/api/v1/clients/${MISSING}`, { name: 'n' })).status).toBe(404);
  });
});

describe('every /api/v1 response', () => {
  it('carries a request id, echoing a sane one given by the caller', async () => {
    const generated = await api.get('/api/v1/clients');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await api.get('/api/v1/clients', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers['x-request-id']).toBe('trace-123');
    const insane = await api.get('/api/v1/clients', { headers: { 'x-request-id': 'a b<script>' } });
    expect(insane.headers['x-request-id']).not.toBe('a b<script>');
  });

  it('carries the deprecation headers when configured', async () => {
    const res = await api.get('/api/v1/clients');
    expect(res.headers.deprecation).toBe('@1893456000');
    expect(res.headers.sunset).toBe('Sun, 01 Jan 2034 00:00:00 GMT');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await api.get('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'No route for GET /api/v1/nothing-here' });
    expect(res.headers['ratelimit-policy']).toBe('"v1";q=10000;w=60');
    // Outside /api the pages answer: a 404 page, not JSON.
    const outside = await api.app.inject({ method: 'GET', url: '/nowhere' });
    expect(outside.statusCode).toBe(404);
    expect(outside.headers['content-type']).toMatch(/^text\/html/);
    expect(outside.body).toContain('Page not found');
  });

  it('serves /healthz without a credential', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});
