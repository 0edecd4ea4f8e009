// Behind the front proxy of docs/operations.md (Caddy on loopback), with TRUST_PROXY naming it: every way in
// tells visitors apart by their own address, never by the proxy's, and never by what a client
// wrote in X-Forwarded-For (the rightmost untrusted entry counts). Before TRUST_PROXY drove all
// of them, one visitor's failed sign-ins or requests without a key slowed everyone down, and
// spoofed X-Forwarded-For headers escaped the form limit.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { FrontProxy, hasCaddy } from '../helpers/proxy.ts';

const api = useTestApi({
  TRUST_PROXY: '127.0.0.1',
  RATE_LIMIT_QUOTA: '5',
  FORM_RATE_LIMIT: '3',
  SITES_DOMAIN: 'sites.test',
});
let proxy: FrontProxy;
let spoofs = 0;
/** A new made-up X-Forwarded-For on every request, as an attacker would send. */
const spoofed = () => ({ 'x-forwarded-for': `203.0.113.${++spoofs % 250}` });

describe.runIf(hasCaddy)('behind a front proxy (TRUST_PROXY)', () => {
  beforeAll(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    proxy = await FrontProxy.start((api.app.server.address() as AddressInfo).port);
  });
  afterAll(() => proxy?.stop());

  it('limits requests without a key per visitor, whatever X-Forwarded-For says', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await proxy.send({ from: '127.0.0.2', path: '/api/v1/projects', headers: spoofed() })).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await proxy.send({ from: '127.0.0.3', path: '/api/v1/projects' })).status).toBe(401);
  });

  it('slows down one visitor’s failed sign-ins, not everyone’s', async () => {
    const member = await api.ctx.services.accounts.createMember({
      email: `b-${process.pid}@example.com`,
      password: 'a long enough password',
      name: null,
      orgId: api.org.id,
      role: 'owner',
    });
    const signIn = async (from: string, email: string, password: string) => {
      const page = await proxy.send({ from, path: '/sign-in' });
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const cookie = ([] as string[])
        .concat(page.headers['set-cookie'] ?? [])
        .map((c) => c.split(';')[0])
        .join('; ');
      const body = new URLSearchParams({ _csrf: csrf, email, password }).toString();
      const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded', ...spoofed() };
      return (await proxy.send({ from, method: 'POST', path: '/sign-in', headers, body })).status;
    };
    // Thirty free failures from one address (across accounts), one more after them, then a wait.
    for (let i = 0; i < 31; i++)
      expect(await signIn('127.0.0.4', `nobody-${i}@example.com`, 'wrong password!')).toBe(400);
    expect(await signIn('127.0.0.4', member.email, 'a long enough password')).toBe(429);
    expect(await signIn('127.0.0.5', member.email, 'a long enough password')).toBe(303);
  }, 60_000);

  it('counts a site’s form posts per visitor on the site hosts too', async () => {
    const client = await createClient(api);
    const project = await createProject(api, { client_email: client.email, name: 'Proxy Bakery' });
    await api.post(`/api/v1/projects/${project.id}/publish`, {
      builtFiles: { 'index.html': '<form action="/_forms/contact" method="post"></form>' },
    });
    const post = (from: string) =>
      proxy.send({
        from,
        method: 'POST',
        path: '/_forms/contact',
        headers: {
          host: `${project.subdomain}.sites.test`,
          'content-type': 'application/x-www-form-urlencoded',
          ...spoofed(),
        },
        body: 'name=Ann&message=Hello',
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post('127.0.0.6')).status);
    expect(statuses).toEqual([303, 303, 303, 429]);
    expect((await post('127.0.0.7')).status).toBe(303);
  });
});
