// /internal/tls/ask answers only callers in TLS_ASK_ALLOW: the decision on peer addresses, and the
// route on a real server whose allow list leaves out 127.0.0.1, where the test itself calls from.
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { addressInList, parseCidrList } from '../../src/lib/cidr.ts';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createProject } from '../helpers/fixtures.ts';

describe('the allow list', () => {
  const list = parseCidrList('10.0.0.0/8, fd00::/8,192.0.2.7');
  it.each([
    ['10.1.2.3', true],
    ['::ffff:10.1.2.3', true],
    ['fd12::1', true],
    ['192.0.2.7', true],
    ['192.0.2.8', false],
    ['11.0.0.1', false],
    ['127.0.0.1', false],
    ['::1', false],
    ['fe80::1', false],
    ['', false],
    [undefined, false],
    ['not-an-address', false],
  ])('%s in 10.0.0.0/8, fd00::/8, 192.0.2.7: %s', (address, expected) => {
    expect(addressInList(address, list)).toBe(expected);
  });

  it('is loopback only by default, and refuses what is not a range at start', () => {
    const loopback = parseCidrList(loadConfig({}).sites.tlsAskAllow.join(','));
    expect(
      ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'].map((a) => addressInList(a, loopback)),
    ).toEqual([true, true, true, true]);
    expect(['10.0.0.1', '192.168.1.1', '::2'].map((a) => addressInList(a, loopback))).toEqual([
      false,
      false,
      false,
    ]);
    expect(() => loadConfig({ TLS_ASK_ALLOW: '10.0.0.0/8,private' })).toThrow(ConfigError);
    expect(() => loadConfig({ TLS_ASK_ALLOW: '10.0.0.0/33' })).toThrow(
      /TLS_ASK_ALLOW: '10.0.0.0\/33' is not a CIDR range/,
    );
  });
});

describe('GET /internal/tls/ask with TLS_ASK_ALLOW=10.0.0.0/8,fd00::/8', () => {
  const api = useTestApi({ SITES_DOMAIN: 'sites.test', TLS_ASK_ALLOW: '10.0.0.0/8,fd00::/8' });
  let port: number;
  let domain: string;
  beforeAll(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    port = (api.app.server.address() as AddressInfo).port;
  });

  async function published(): Promise<string> {
    if (domain) return domain;
    const client = await createClient(api);
    const p = await createProject(api, { client_email: client.email, name: 'TLS site' });
    await api.post(`/api/v1/projects/${p.id}/publish`, { builtFiles: { 'index.html': 'hi' } });
    domain = `${p.subdomain}.sites.test`;
    return domain;
  }

  it('answers a loopback caller left out of the list 404, as if the route did not exist', async () => {
    const ask = await fetch(`http://127.0.0.1:${port}/internal/tls/ask?domain=${await published()}`);
    expect(ask.status).toBe(404);
    // The same answer as any path nothing serves (the pages' 404 page).
    const unknown = await fetch(`http://127.0.0.1:${port}/internal/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(await ask.text()).toBe(await unknown.text());
  });

  it('answers callers in the list', async () => {
    const url = `/internal/tls/ask?domain=${await published()}`;
    for (const remoteAddress of ['10.1.2.3', '::ffff:10.0.0.9', 'fd00::53']) {
      expect([remoteAddress, (await api.app.inject({ url, remoteAddress })).statusCode]).toEqual([
        remoteAddress,
        200,
      ]);
    }
    expect(
      (
        await api.app.inject({
          url: '/internal/tls/ask?domain=nothing.sites.test',
          remoteAddress: '10.1.2.3',
        })
      ).statusCode,
    ).toBe(404);
    expect((await api.app.inject({ url, remoteAddress: '198.51.100.1' })).statusCode).toBe(404);
  });
});
