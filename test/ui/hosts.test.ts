// The pages answer on the service's own host (PUBLIC_URL) and on loopback names only: a name
// pointed at this server by someone else never shows a sign-in page.
import { describe, expect, it } from 'vitest';
import { servesHost } from '../../src/ui/plugin.ts';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi();

describe('hosts the pages answer on', () => {
  it('the PUBLIC_URL host and loopback names, nothing else', () => {
    expect(servesHost('sitewright.test', 'sitewright.test')).toBe(true);
    expect(servesHost('SITEWRIGHT.TEST', 'sitewright.test')).toBe(true);
    expect(servesHost('localhost:3000', 'sitewright.test')).toBe(true);
    expect(servesHost('127.0.0.1:8080', 'sitewright.test')).toBe(true);
    expect(servesHost('[::1]:3000', 'sitewright.test')).toBe(true);
    expect(servesHost('evil.example', 'sitewright.test')).toBe(false);
    expect(servesHost('sitewright.test.evil.example', 'sitewright.test')).toBe(false);
    expect(servesHost(undefined, 'sitewright.test')).toBe(false);
  });

  it('a foreign Host gets the 404 page instead of the set-up or sign-in page', async () => {
    const own = await api.app.inject({
      method: 'GET',
      url: '/sign-in',
      headers: { host: 'sitewright.test' },
    });
    expect([200, 303]).toContain(own.statusCode);
    const foreign = await api.app.inject({
      method: 'GET',
      url: '/sign-in',
      headers: { host: 'www.not-ours.example' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toContain('Page not found');
    // The API still answers under any host (load balancers use their own names).
    const docs = await api.app.inject({
      method: 'GET',
      url: '/api/v1/docs',
      headers: { host: 'www.not-ours.example' },
    });
    expect(docs.statusCode).toBe(200);
  });
});
