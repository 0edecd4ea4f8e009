// The OAuth endpoints' limits: registration and revocation count per address, the token endpoint
// per client, so that one busy sender behind an address never starves another application's
// token refreshes.
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi({ RATE_LIMIT_QUOTA: '3' });

const post = (url: string, form: Record<string, string>, ip: string) =>
  api.app.inject({ method: 'POST', url, remoteAddress: ip, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
const register = (ip: string) =>
  api.app.inject({ method: 'POST', url: '/oauth/register', remoteAddress: ip, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ client_name: 'Agent', redirect_uris: ['http://127.0.0.1/cb'] }) });

describe('OAuth limits', () => {
  it('count registrations per address and token requests per client', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await register('10.9.0.1')).json().client_id);
    expect((await register('10.9.0.1')).statusCode).toBe(429);
    expect((await register('10.9.0.2')).statusCode).toBe(201);
    // The address is spent; each client's refreshes still have their own quota.
    const refresh = (clientId: string) => post('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'swr_unknown', client_id: clientId }, '10.9.0.1');
    for (let i = 0; i < 3; i++) expect((await refresh(ids[0]!)).statusCode).toBe(400);
    const spent = await refresh(ids[0]!);
    expect(spent.statusCode).toBe(429);
    expect(spent.json()).toMatchObject({ error: 'slow_down' });
    expect((await refresh(ids[1]!)).statusCode).toBe(400);
  });
});
