// Which site a Host names is remembered for a second, negative answers too: API requests that
// arrive under another name than PUBLIC_URL's (a load balancer's internal host) stop paying a
// database query each. This process's own changes show on the very next request; a change made
// elsewhere (another instance) shows within the second.
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOST_ANSWER_TTL_MS } from '../../src/edge/host-resolver.ts';
import { newId } from '../../src/lib/ids.ts';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { sleep, waitUntil } from '../helpers/wait.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test' });
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});
afterEach(() => {
  vi.restoreAllMocks();
});

let n = 0;
async function project() {
  const client = await createClient(api);
  return createProject(api, { client_email: client.email, name: `Host answers ${++n}` });
}

/** A custom domain made active behind the service's back, as another instance would. */
async function activateElsewhere(projectId: string, domain: string) {
  const now = new Date().toISOString();
  await api.ctx.database.db
    .insertInto('project_domains')
    .values({
      id: newId(),
      org_id: api.org.id,
      project_id: projectId,
      domain,
      status: 'active',
      verification_token: 't',
      check_results: null,
      verified_at: now,
      last_checked_at: now,
      next_attempt_at: null,
      attempts: 0,
      lease_until: null,
      lease_token: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

describe('host answers', () => {
  it("asks the database once per second for an API host other than PUBLIC_URL's", async () => {
    const lookUps = vi.spyOn(api.ctx.services.sites, 'byDomain');
    for (let i = 0; i < 5; i++) {
      const res = await fetchSite(port, 'api.internal', '/api/v1/clients');
      expect(res.status).toBe(401);
    }
    expect(lookUps).toHaveBeenCalledTimes(1);
    await sleep(HOST_ANSWER_TTL_MS + 100);
    expect((await fetchSite(port, 'api.internal', '/api/v1/clients')).status).toBe(401);
    expect(lookUps).toHaveBeenCalledTimes(2);
  });

  it('remembers a site host with nothing published, and forgets it when the site is published here', async () => {
    const p = await project();
    const host = `${p.subdomain}.sites.test`;
    const lookUps = vi.spyOn(api.ctx.services.sites, 'bySubdomain');
    for (let i = 0; i < 3; i++) expect((await fetchSite(port, host, '/')).body).toContain('Site not found');
    expect(lookUps).toHaveBeenCalledTimes(1);
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'now live' } });
    expect((await fetchSite(port, host, '/')).body).toBe('now live');
  });

  it('shows a change made by another instance within the second', async () => {
    const p = await project();
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'custom home' } });
    // The publish's change signal lands first: a look-up it overtakes is (rightly) not kept.
    await sleep(10);
    const domain = `www.elsewhere${++n}.example`;
    const started = Date.now();
    expect((await fetchSite(port, domain, '/api/v1/clients')).status).toBe(401);
    await activateElsewhere(p.id, domain);
    // No change signal reached this process: the API's answer stands until it expires.
    const still = await fetchSite(port, domain, '/api/v1/clients');
    if (Date.now() - started < HOST_ANSWER_TTL_MS) expect(still.status).toBe(401);
    const served = await waitUntil(
      async () => {
        const res = await fetchSite(port, domain, '/');
        return res.body === 'custom home' && Date.now() - started;
      },
      3 * HOST_ANSWER_TTL_MS,
      'the domain to serve its site',
    );
    expect(served).toBeLessThanOrEqual(HOST_ANSWER_TTL_MS + 500);
  });

  it('does not keep an answer looked up while a change was signalled', async () => {
    const p = await project();
    const host = `${p.subdomain}.sites.test`;
    const sites = api.ctx.services.sites;
    const lookUp = sites.bySubdomain.bind(sites);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    // The first look-up reads "nothing published", then is held until after the publish below.
    vi.spyOn(sites, 'bySubdomain').mockImplementationOnce(async (label) => {
      const answer = await lookUp(label);
      asked();
      await held;
      return answer;
    });
    const early = fetchSite(port, host, '/');
    await wasAsked;
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'published' } });
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await early).status).toBe(404);
    expect((await fetchSite(port, host, '/')).body).toBe('published');
  });
});
