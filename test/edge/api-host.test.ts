// The API's own host (PUBLIC_URL, here with a port) is never a site: it cannot be added as a
// custom domain, and a site row naming it (however it got there) never takes the API's requests.
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';
import { fetchSite } from '../helpers/site-client.ts';
import { newId } from '../../src/lib/ids.ts';

const api = useTestApi({ SITES_DOMAIN: 'sites.test', PUBLIC_URL: 'https://api.agency-demo.com:8443' });
let port: number;
beforeAll(async () => {
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});

describe("the API's own host", () => {
  it('cannot be added as a custom domain', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Site' });
    const res = await api.post(`/api/v1/projects/${p.id}/domains`, { domain: 'API.agency-demo.com' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("field 'domain': api.agency-demo.com is the service's own API host");
    expect(
      (await api.post(`/api/v1/projects/${p.id}/domains`, { domain: 'www.agency-demo.com' })).status,
    ).toBe(201);
  });

  it('answers the API even when an active site domain names it', async () => {
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'Squatter' });
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'not the API' } });
    const now = new Date().toISOString();
    await api.ctx.database.db
      .insertInto('project_domains')
      .values({
        id: newId(),
        org_id: api.org.id,
        project_id: p.id,
        domain: 'api.agency-demo.com',
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
    const res = await fetchSite(port, 'api.agency-demo.com:8443', '/api/v1/clients');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({ error: 'Missing API key: send "Authorization: Bearer wk_..."' });
  });
});
