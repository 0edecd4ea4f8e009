// The one address policy of outgoing requests, and the connect-time guard that applies it to
// every address a name resolves to: a real request through the real agents, with a resolver of
// the test's own standing in for DNS (a host name whose records point at a refused address).
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isRefusedAddress } from '../../src/lib/address-policy.ts';
import { createAgents, describeGuardError } from '../../src/events/url-guard.ts';

describe('isRefusedAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::127.0.0.1',
    '::7f00:1',
    '::8.8.8.8',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::808:808',
    '2002:7f00:1::1',
    '2002:a00:1::',
    '2002:a9fe:a9fe::1',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'fec0::1',
    'feff::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    'ff0e::1',
    '2001:db8::1',
    '100::1',
    'fe80::1%eth0',
    'localhost',
    '010.0.0.1',
    '',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::1',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('allows %s', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});

/** A request through the guarded agent, for a name the test's resolver answers with `addresses`. */
function requestVia(addresses: { address: string; family: number }[]): Promise<Error> {
  const agents = createAgents(false);
  const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
  return new Promise((resolve, reject) => {
    const req = https.request(
      'https://hooks.example.test:9443/',
      { agent: agents.https, lookup, method: 'POST' },
      () => reject(new Error('connected')),
    );
    req.on('error', (error) => {
      agents.https.destroy();
      resolve(error);
    });
    req.end();
  });
}

describe('the connect-time guard', () => {
  it.each(['::7f00:1', '::a9fe:a9fe', '::ffff:0:7f00:1', 'fec0::1'])(
    'refuses a name that resolves to %s, naming it',
    async (address) => {
      const error = await requestVia([{ address, family: 6 }]);
      expect(describeGuardError(error)).toBe(
        `refused by the SSRF guard: hooks.example.test resolves to ${address}, a private, loopback, link-local or reserved address`,
      );
    },
  );

  it('refuses a name when any one of its addresses is refused', async () => {
    const error = await requestVia([
      { address: '2606:4700:4700::1111', family: 6 },
      { address: '::7f00:1', family: 6 },
    ]);
    expect(describeGuardError(error)).toMatch(/resolves to ::7f00:1, /);
  });
});
