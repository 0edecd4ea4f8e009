// METRICS=on: /metrics in Prometheus's format, only to METRICS_TOKEN or to METRICS_ALLOW callers
// that came through no proxy, never on a site host, never with a label carrying an id, an email
// or a host (the series stay as many after a thousand clients and sites as after ten), and off
// by default.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient } from '../helpers/fixtures.ts';
import { onPostgres } from '../helpers/database.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { createContainer } from '../../src/container.ts';
import { buildServer } from '../../src/main.ts';
import { systemPrincipal } from '../../src/modules/access/principal.ts';
import { startWorkerHealth } from '../../src/cli/worker-health.ts';
import { freePort } from '../helpers/server-process.ts';

const TOKEN = 'metrics-token-0123456789';
const api = useTestApi({
  METRICS: 'on',
  METRICS_TOKEN: TOKEN,
  SITES_DOMAIN: 'sites.test',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
});
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

const scrape = (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  api.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });

/** The series of an exposition: every line that is not a comment. */
const series = (text: string) => text.split('\n').filter((line) => line && !line.startsWith('#'));

describe('who reads /metrics', () => {
  it('answers loopback callers that came through no proxy, in the Prometheus format', async () => {
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const name of [
      'sitewright_http_request_duration_seconds',
      'sitewright_webhook_attempt_duration_seconds',
      'sitewright_webhook_backlog',
      'sitewright_webhook_backlog_oldest_seconds',
      'sitewright_generation_run_duration_seconds',
      'sitewright_generations',
      'sitewright_domain_checks_total',
      'sitewright_domains',
      'sitewright_backup_last_timestamp_seconds',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
    ])
      expect(res.body).toContain(`# HELP ${name} `);
    // The pool is PostgreSQL's; SQLite has one writer and one reader, no pool.
    if (onPostgres) expect(res.body).toMatch(/^sitewright_db_pool_connections\{state="total"\} [1-9]/m);
    else expect(res.body).not.toContain('sitewright_db_pool_connections');
  });

  it('refuses others, and a proxied request without the token, as an unknown path', async () => {
    for (const [headers, from] of [
      [{}, '203.0.113.9'],
      [{ authorization: 'Bearer wrong-token-wrong-token' }, '203.0.113.9'],
      [{ 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1'],
      [{ forwarded: 'for=203.0.113.9' }, '127.0.0.1'],
      // An empty X-Forwarded-For does not hide the X-Real-IP a proxy set.
      [{ 'x-forwarded-for': '', 'x-real-ip': '203.0.113.9' }, '127.0.0.1'],
    ] as const) {
      const res = await scrape(headers, from);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('sitewright_');
    }
    expect((await scrape({ authorization: `Bearer ${TOKEN}` }, '203.0.113.9')).statusCode).toBe(200);
    expect(
      (await scrape({ authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1'))
        .statusCode,
    ).toBe(200);
  });

  it('is never served on a site host', async () => {
    const client = await createClient(api);
    const project = (await api.post('/api/v1/projects', { name: 'M', client_email: client.email })).body
      .project;
    await api.post(`/api/v1/projects/${project.id}/publish`, { builtFiles: { 'index.html': '<h1>Hi</h1>' } });
    // The site answers its own /metrics (here its page, as for any path it lacks); no site: 404.
    const site = await fetchSite(port, `${project.subdomain}.sites.test`, '/metrics', {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(site.body).toContain('<h1>Hi</h1>');
    const none = await fetchSite(port, 'nobody.sites.test', '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(none.status).toBe(404);
    for (const res of [site, none]) expect(res.body).not.toContain('sitewright_http');
  });

  it('is not there at all without METRICS=on', async () => {
    const off = await createContainer({ ...api.ctx.config, metrics: undefined });
    const app = await buildServer(off);
    try {
      const res = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
      expect(res.statusCode).toBe(404);
      expect(off.metrics).toBeUndefined();
    } finally {
      await app.close();
      await off.close();
    }
  });

  it('is served on the worker port to the same callers', async () => {
    const metrics = api.ctx.metrics!;
    const workerPort = await freePort();
    const health = await startWorkerHealth('127.0.0.1', workerPort, () => api.ctx.readiness(), {
      access: api.ctx.config.metrics!,
      contentType: metrics.contentType,
      render: () => metrics.render(),
    });
    try {
      const ok = await fetch(`http://127.0.0.1:${workerPort}/metrics`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('sitewright_webhook_backlog ');
      const proxied = await fetch(`http://127.0.0.1:${workerPort}/metrics`, {
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(proxied.status).toBe(404);
    } finally {
      await health.stop();
    }
  });
});

describe('what /metrics says', () => {
  it('counts requests by way in, route pattern, method and status', async () => {
    const client = await createClient(api);
    await api.get(`/api/v1/clients/${client.id}`);
    await api.app.inject({ method: 'GET', url: '/sign-in' });
    await api.get('/api/v1/nothing-here');
    const text = (await scrape()).body;
    expect(text).toMatch(
      /sitewright_http_request_duration_seconds_count\{surface="api",route="\/api\/v1\/clients\/:clientId",method="GET",status="200"\} [1-9]/,
    );
    expect(text).toMatch(/surface="pages",route="\/sign-in",method="GET",status="\d{3}"/);
    expect(text).toMatch(/surface="api",route="unmatched",method="GET",status="404"/);
  });

  it('shows the webhook backlog and the age of its oldest event', async () => {
    await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['client.created'] });
    await createClient(api);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const text = (await scrape()).body;
    const backlog = Number(/^sitewright_webhook_backlog (\S+)$/m.exec(text)?.[1]);
    const oldest = Number(/^sitewright_webhook_backlog_oldest_seconds (\S+)$/m.exec(text)?.[1]);
    expect(backlog).toBeGreaterThanOrEqual(1);
    expect(oldest).toBeGreaterThanOrEqual(1);
  });

  it('keeps the same series after a thousand distinct clients and sites as after ten', async () => {
    const principal = systemPrincipal(api.org.id);
    const { clients, projects, publishing } = api.ctx.services;
    const visit = async (i: number) => {
      const client = await clients.create(principal, { email: `many-${i}@example.com`, name: `Many ${i}` });
      const project = await projects.create(principal, { name: `Many ${i}`, client_email: client.email });
      await publishing.publish(principal, project.id, { 'index.html': `<h1>${i}</h1>` });
      await api.get(`/api/v1/clients/${client.id}`);
      await api.get(`/api/v1/projects/${project.id}`);
      await api.app.inject({ method: 'GET', url: `/clients/${client.id}` });
      expect((await fetchSite(port, `${project.subdomain!}.sites.test`, '/')).status).toBe(200);
      return { client, project };
    };
    for (let i = 0; i < 10; i++) await visit(i);
    const after10 = series((await scrape()).body).map((line) => line.replace(/ \S+$/, ''));
    const seen: string[] = [];
    for (let i = 10; i < 1_000; i++) {
      const { client, project } = await visit(i);
      if (i % 97 === 0) seen.push(client.id, client.email, project.id, project.subdomain!);
    }
    const text = (await scrape()).body;
    const after1000 = series(text).map((line) => line.replace(/ \S+$/, ''));
    expect(after1000.filter((s) => s.startsWith('sitewright_')).sort()).toEqual(
      after10.filter((s) => s.startsWith('sitewright_')).sort(),
    );
    expect(after1000.length).toBeLessThan(after10.length + 20); // Node's own (GC kinds) may add a few
    for (const value of seen) expect(text).not.toContain(value);
    expect(text).toMatch(/surface="edge",route="site",method="GET",status="200"/);
  }, 240_000);
});

describe('the Grafana dashboard (docs/operations/grafana-dashboard.json)', () => {
  it('queries only metrics that /metrics serves', async () => {
    const file = fileURLToPath(new URL('../../docs/operations/grafana-dashboard.json', import.meta.url));
    const dashboard = JSON.parse(readFileSync(file, 'utf8'));
    const text = (await scrape()).body;
    const ids = dashboard.panels.map((p: any) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const names = new Set<string>();
    for (const panel of dashboard.panels)
      for (const target of panel.targets) {
        expect(target.datasource.uid).toBe('${DS_PROMETHEUS}');
        for (const [name] of target.expr.matchAll(/\b(?:sitewright|nodejs|process)_[a-z0-9_]+/g))
          names.add(name.replace(/_(bucket|count|sum)$/, ''));
      }
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) {
      // The pool's panel is PostgreSQL's; SQLite has none.
      if (name === 'sitewright_db_pool_connections' && !onPostgres) continue;
      expect(text, name).toContain(`# HELP ${name} `);
    }
  });
});
