// Answers the router and the HTTP parser give before any hook: still exactly {"error": "..."},
// with a request id and the rate-limit headers, counted against the caller, 401 before 400.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi();
let port = 0;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => reject(new Error('no answer')));
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('router and parser errors keep the API contract', () => {
  it('a malformed percent-encoding: 401 without a key, else 400, with request id and rate-limit headers, counted', async () => {
    const anonymous = await api.app.inject({ method: 'GET', url: '/api/v1/clients/%zz' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: expect.any(String) });
    const first = await api.app.inject({
      method: 'GET',
      url: '/api/v1/clients/%zz',
      headers: { authorization: `Bearer ${api.key}` },
    });
    const second = await api.app.inject({
      method: 'GET',
      url: '/api/v1/clients/%zz',
      headers: { authorization: `Bearer ${api.key}` },
    });
    for (const res of [first, second]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'The URL holds a malformed percent-encoding' });
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.headers['ratelimit-policy']).toBeTruthy();
    }
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(
      Number(first.headers['x-ratelimit-remaining']) - 1,
    );
  });

  it('a long id is a 400 naming the parameter, not a 414', async () => {
    const res = await api.get(`/api/v1/projects/${'x'.repeat(300)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "path parameter 'projectId' must be a valid uuid" });
    const huge = await api.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${'x'.repeat(5000)}`,
      headers: { authorization: `Bearer ${api.key}` },
    });
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toEqual({ error: 'A path parameter is too long' });
  });

  it('a request the parser cannot read, and oversized headers, get JSON answers and a closed connection', async () => {
    const broken = await raw('GARBAGE / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 /);
    expect(broken.toLowerCase()).toContain('x-request-id:');
    expect(broken.toLowerCase()).toContain('ratelimit-policy:');
    expect(Object.keys(bodyOf(broken))).toEqual(['error']);
    const big = await raw(`GET /api/v1/clients HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(big)).toEqual({ error: 'The request headers are too large' });
  });

  it('a build link too long for the server is a page saying what to do, not JSON', async () => {
    const org = '0190a0b0-0000-7000-8000-000000000001';
    const answer = await raw(
      `GET /build?org=${org}&prompt=${'A%20bakery%20'.repeat(3_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer.toLowerCase()).toContain('content-type: text/html; charset=utf-8');
    expect(answer.toLowerCase()).toContain("content-security-policy: default-src 'self'");
    expect(answer).toContain('This link is too long');
    expect(answer).toContain(`href="/build?org=${org}"`);
  });
});
