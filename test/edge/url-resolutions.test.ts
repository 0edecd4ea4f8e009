// How a URL resolves in a deployment is remembered as the path that answered, not as the file:
// once the file cache lets a file go, the next request for its URL reads that one path again
// (through the cache) instead of serving bytes the cache no longer bounds.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createSiteHandler, type SiteHandler } from '../../src/edge/site-handler.ts';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test' });
const PAGE_BYTES = 4_000;
let server: Server;
let edge: SiteHandler;
let port: number;

beforeAll(async () => {
  const { services, config } = api.ctx;
  // A file cache that holds about three pages.
  edge = createSiteHandler({
    sites: services.sites,
    forms: services.forms,
    capture: services.capture,
    settings: config.sites,
    publicUrl: config.publicUrl,
    fileCacheBytes: 3.5 * PAGE_BYTES,
  });
  server = createServer(async (req, res) => {
    if (!(await edge.handle(req, res))) res.writeHead(421).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  edge.close();
  await new Promise((resolve) => server.close(resolve));
});

it('reads a page again through the file cache once the cache has let it go, resolving nothing twice', async () => {
  const client = await createClient(api);
  const p = await createProject(api, { client_email: client.email, name: 'Many pages' });
  const page = (n: number | string) => `<h1>${n}</h1>${'x'.repeat(PAGE_BYTES)}`;
  const builtFiles: Record<string, string> = { 'index.html': page('home') };
  for (let i = 0; i < 6; i++) builtFiles[`p${i}.html`] = page(i);
  const { deployId } = (await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles })).body;
  const host = `${p.subdomain}.sites.test`;

  // An SPA route: tried as a directory first, then answered by index.html.
  expect((await fetchSite(port, host, '/app/settings')).body).toBe(page('home'));
  for (let i = 0; i < 6; i++) expect((await fetchSite(port, host, `/p${i}.html`)).body).toBe(page(i));

  const reads = vi.spyOn(api.ctx.services.sites, 'deploymentFile');
  try {
    const again = await fetchSite(port, host, '/app/settings');
    expect(again.status).toBe(200);
    expect(again.body).toBe(page('home'));
    // The resolution was remembered (no `app/settings/index.html` tried again), the bytes were not.
    expect(reads.mock.calls).toEqual([[deployId, 'index.html']]);
  } finally {
    reads.mockRestore();
  }
});
