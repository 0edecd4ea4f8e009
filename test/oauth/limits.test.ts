// The OAuth endpoints' limits: registration and revocation share the quota per address of
// everyone without a key; the token endpoint has its own quota per address, so a flood of
// registrations never starves token refreshes, and a client_id (chosen by the caller) never
// escapes or spends a limit.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi({ RATE_LIMIT_QUOTA: '3' });

const post = (url: string, form: Record<string, string>, ip: string) =>
  api.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
const register = (ip: string) =>
  api.app.inject({
    method: 'POST',
    url: '/oauth/register',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: 'Agent', redirect_uris: ['http://127.0.0.1/cb'] }),
  });

describe('OAuth limits', () => {
  it('count registrations per address, and token requests per address in a quota of their own', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await register('10.9.0.1')).json().client_id);
    expect((await register('10.9.0.1')).statusCode).toBe(429);
    expect((await register('10.9.0.2')).statusCode).toBe(201);
    // The address's shared quota is spent; its token refreshes still have their own.
    const refresh = (clientId: string, ip = '10.9.0.1') =>
      post(
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: 'swr_unknown', client_id: clientId },
        ip,
      );
    for (let i = 0; i < 3; i++) expect((await refresh(ids[0]!)).statusCode).toBe(400);
    // Another (or a made-up) client_id does not escape it.
    const spent = await refresh('swc_made_up');
    expect(spent.statusCode).toBe(429);
    expect(spent.json()).toMatchObject({ error: 'slow_down' });
    // Nor does it spend another address's.
    expect((await refresh(ids[0]!, '10.9.0.3')).statusCode).toBe(400);
  });
});
