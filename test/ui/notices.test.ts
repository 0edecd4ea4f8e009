// The one-time notice after a form: `__Host-` prefixed and Secure on https, so a site on a sibling
// host (sites.agency.com under app.agency.com) cannot plant text in the dashboard's banner.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi({ PUBLIC_URL: 'https://app.agency.com', SITES_DOMAIN: 'sites.agency.com' });

const cookiesOf = (headers: Record<string, unknown>) =>
  ([] as string[]).concat((headers['set-cookie'] as string[] | string | undefined) ?? []);

describe('notices on https', () => {
  it('travel in a __Host- cookie; a planted plain one is never shown', async () => {
    const host = 'app.agency.com';
    await api.ctx.services.accounts.createMember({
      email: `n-${process.pid}@example.com`,
      password: 'a long enough password',
      name: null,
      orgId: api.org.id,
      role: 'owner',
    });
    const planted = await api.app.inject({
      method: 'GET',
      url: '/sign-in',
      headers: { host, cookie: 'sitewright_notice=Your account is locked: call 0800 FRAUD' },
    });
    expect(planted.statusCode).toBe(200);
    expect(planted.body).not.toContain('0800 FRAUD');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(planted.body)![1]!;
    const jar = cookiesOf(planted.headers)
      .map((c) => c.split(';')[0])
      .join('; ');
    const signedOut = await api.app.inject({
      method: 'POST',
      url: '/sign-out',
      headers: { host, cookie: jar, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(csrf)}`,
    });
    expect(signedOut.statusCode).toBe(303);
    const notice = cookiesOf(signedOut.headers).find((c) => c.includes('notice'))!;
    expect(notice).toMatch(
      /^__Host-sitewright_notice=You%20are%20signed%20out\.; Max-Age=60; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    const next = await api.app.inject({
      method: 'GET',
      url: '/sign-in',
      headers: { host, cookie: `${jar}; ${notice.split(';')[0]}` },
    });
    expect(next.body).toContain('You are signed out.');
  });
});
