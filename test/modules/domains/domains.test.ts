// Custom domains against a real DNS server on loopback: validation, plan and uniqueness rules,
// verification, the project's fields following, hosting on the domain, the background check,
// deletion, and the TLS ask endpoint.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../../helpers/app.ts';
import { createClient, createProject } from '../../helpers/fixtures.ts';
import { LoopbackDns } from '../../helpers/dns-server.ts';
import { fetchSite } from '../../helpers/site-client.ts';
import { DomainChecker } from '../../../src/modules/domains/checker.ts';

const dns = await new LoopbackDns().start();
afterAll(() => dns.stop());
const api = useTestApi({
  SITES_DOMAIN: 'sites.test',
  DNS_SERVERS: dns.address,
  DOMAIN_CHECK_INTERVAL: '100ms',
});
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});
let n = 0;

async function project(planId?: string) {
  const client = await createClient(api, planId ? { plan_id: planId } : {});
  return createProject(api, { client_email: client.email, name: 'Domain site' });
}
const records = (domain: any) => Object.fromEntries(domain.dns_records.map((r: any) => [r.type, r]));
function pointDns(domain: any) {
  const { CNAME, TXT } = records(domain);
  dns.set(CNAME.name, { type: 'CNAME', value: CNAME.value });
  dns.set(TXT.name, { type: 'TXT', value: TXT.value });
}

describe('custom domains', () => {
  it('adds a pending domain with the records to create, lists it as a plain array', async () => {
    const p = await project();
    const res = await api.post(`/api/v1/projects/${p.id}/domains`, { domain: 'WWW.Bäckerei-Example.de.' });
    expect(res.status).toBe(201);
    const d = res.body;
    expect(d).toMatchObject({
      project_id: p.id,
      domain: 'www.xn--bckerei-example-0kb.de',
      subdomain: 'www',
      status: 'pending',
      ssl_status: 'pending',
      verified_at: null,
    });
    expect(Object.keys(d).sort()).toEqual([
      'created_at',
      'dns_records',
      'domain',
      'id',
      'project_id',
      'ssl_status',
      'status',
      'subdomain',
      'updated_at',
      'verified_at',
    ]);
    expect(d.dns_records).toEqual([
      { type: 'CNAME', name: d.domain, value: 'sites.test', status: 'unchecked' },
      {
        type: 'TXT',
        name: `_sitewright.${d.domain}`,
        value: expect.stringMatching(/^sitewright-verify=[0-9a-f]{32}$/),
        status: 'unchecked',
      },
    ]);
    const list = await api.get(`/api/v1/projects/${p.id}/domains`);
    expect(list.body).toEqual([d]);
    expect((await api.get(`/api/v1/projects/${p.id}`)).body.project).toMatchObject({
      custom_domain: d.domain,
      custom_domain_status: 'pending',
    });
  });

  it.each([
    ['https://x.example.com/'],
    ['192.168.1.10'],
    ['localhost'],
    ['example.notarealtld'],
    ['a..example.com'],
    ['-bad.example.com'],
    ['shop.sites.test'],
    ['x.example.com:8080'],
  ])('refuses %s', async (domain) => {
    const p = await project();
    const res = await api.post(`/api/v1/projects/${p.id}/domains`, { domain });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^field 'domain'/);
  });

  it('is unique across the whole service and follows the plan', async () => {
    const p = await project();
    const name = `shop${++n}.example.com`;
    expect((await api.post(`/api/v1/projects/${p.id}/domains`, { domain: name })).status).toBe(201);
    const other = await api.newOrg('Other');
    const theirClient = await createClient(api, {}, other.key);
    const theirs = await createProject(api, { client_email: theirClient.email, name: 'Theirs' }, other.key);
    const dup = await api.post(
      `/api/v1/projects/${theirs.id}/domains`,
      { domain: name.toUpperCase() },
      { key: other.key },
    );
    expect(dup.status).toBe(409);
    expect(dup.body.error).not.toContain(api.org.id);
    expect((await api.get(`/api/v1/projects/${p.id}/domains`, { key: other.key })).status).toBe(404);

    const basic = (await api.post('/api/v1/plans', { name: 'Basic', price: 1 })).body.plan;
    const q = await project(basic.id);
    const refused = await api.post(`/api/v1/projects/${q.id}/domains`, { domain: `other${n}.example.com` });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('can_use_custom_domain');
  });

  it('verifies against DNS, then serves the published site on the domain over https URLs', async () => {
    const p = await project();
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'custom home' } });
    const d = (await api.post(`/api/v1/projects/${p.id}/domains`, { domain: `www.verified${++n}.com` })).body;

    const early = await api.post(`/api/v1/projects/${p.id}/domains/${d.id}/verify`);
    expect(early.body).toMatchObject({ status: 'pending', verified_at: null });
    expect(early.body.dns_records.map((r: any) => r.status)).toEqual(['missing', 'missing']);
    dns.set(d.domain, { type: 'CNAME', value: 'elsewhere.example.net' });
    dns.set(records(d).TXT.name, { type: 'TXT', value: records(d).TXT.value });
    const wrong = await api.post(`/api/v1/projects/${p.id}/domains/${d.id}/verify`);
    expect(wrong.body.dns_records.map((r: any) => r.status)).toEqual(['wrong', 'ok']);
    expect((await fetchSite(port, d.domain, '/')).status).toBe(404);

    pointDns(d);
    const ok = await api.post(`/api/v1/projects/${p.id}/domains/${d.id}/verify`);
    expect(ok.body).toMatchObject({
      status: 'active',
      ssl_status: 'active',
      verified_at: expect.any(String),
    });
    expect((await api.get(`/api/v1/projects/${p.id}`)).body.project).toMatchObject({
      custom_domain: d.domain,
      custom_domain_status: 'active',
      published_url: `https://${d.domain}/`,
    });
    const page = await fetchSite(port, d.domain, '/');
    expect(page.status).toBe(200);
    expect(page.body).toBe('custom home');
    expect((await fetchSite(port, `${p.subdomain}.sites.test`, '/')).body).toBe('custom home');
    // A later publish keeps the custom address.
    expect(
      (await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'v2' } })).body.url,
    ).toBe(`https://${d.domain}/`);

    // TLS on demand: only active domains and published subdomains.
    expect((await api.app.inject({ url: `/internal/tls/ask?domain=${d.domain}` })).statusCode).toBe(200);
    expect(
      (await api.app.inject({ url: `/internal/tls/ask?domain=${p.subdomain}.sites.test` })).statusCode,
    ).toBe(200);
    expect((await api.app.inject({ url: '/internal/tls/ask?domain=random.example.org' })).statusCode).toBe(
      404,
    );
    expect((await api.app.inject({ url: '/internal/tls/ask?domain=nothing.sites.test' })).statusCode).toBe(
      404,
    );
    // Only loopback callers are answered by default (TLS_ASK_ALLOW); anyone else: 404.
    expect(
      (await api.app.inject({ url: `/internal/tls/ask?domain=${d.domain}`, remoteAddress: '203.0.113.7' }))
        .statusCode,
    ).toBe(404);
    // A visitor whose request a front proxy on loopback forwarded is not the proxy asking.
    expect(
      (
        await api.app.inject({
          url: `/internal/tls/ask?domain=${d.domain}`,
          headers: { 'x-forwarded-for': '203.0.113.7' },
        })
      ).statusCode,
    ).toBe(404);

    // Removing it takes the domain off at once and the site back to its subdomain.
    const removed = await api.delete(`/api/v1/projects/${p.id}/domains/${d.id}`);
    expect(removed.body).toEqual({ deleted: true, id: d.id });
    expect((await fetchSite(port, d.domain, '/')).status).toBe(404);
    expect((await api.get(`/api/v1/projects/${p.id}`)).body.project).toMatchObject({
      custom_domain: null,
      custom_domain_status: null,
      published_url: `http://${p.subdomain}.sites.test/`,
    });
    expect((await api.app.inject({ url: `/internal/tls/ask?domain=${d.domain}` })).statusCode).toBe(404);
    expect((await api.delete(`/api/v1/projects/${p.id}/domains/${d.id}`)).status).toBe(404);
  });

  it("verifies an apex whose DNS host flattens the CNAME into the sites host's own addresses", async () => {
    const p = await project();
    const d = (await api.post(`/api/v1/projects/${p.id}/domains`, { domain: `flat${++n}.com` })).body;
    expect(d.subdomain).toBeNull();
    const { CNAME, TXT } = records(d);
    expect(CNAME.value).toBe('sites.test');
    dns.set('sites.test', { type: 'A', value: '203.0.113.10' }, { type: 'A', value: '203.0.113.11' });
    dns.set(TXT.name, { type: 'TXT', value: TXT.value });
    dns.set(d.domain, { type: 'A', value: '198.51.100.1' }); // somewhere else
    const wrong = await api.post(`/api/v1/projects/${p.id}/domains/${d.id}/verify`);
    expect(wrong.body.dns_records.map((r: any) => r.status)).toEqual(['wrong', 'ok']);
    dns.set(d.domain, { type: 'A', value: '203.0.113.11' });
    const ok = await api.post(`/api/v1/projects/${p.id}/domains/${d.id}/verify`);
    expect(ok.body).toMatchObject({
      status: 'active',
      dns_records: [
        { type: 'CNAME', status: 'ok' },
        { type: 'TXT', status: 'ok' },
      ],
    });
  });

  it('activates pending domains in the background', async () => {
    const p = await project();
    const d = (await api.post(`/api/v1/projects/${p.id}/domains`, { domain: `background${++n}.co.uk` })).body;
    expect(d.subdomain).toBeNull();
    pointDns(d);
    const checker = new DomainChecker(api.ctx.services.domains, api.ctx.database, api.ctx.config);
    checker.start();
    try {
      const deadline = Date.now() + 5_000;
      let status = 'pending';
      while (status !== 'active' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await api.get(`/api/v1/projects/${p.id}/domains`)).body[0].status;
      }
      expect(status).toBe('active');
    } finally {
      await checker.stop(1_000);
    }
  });
});
