// Per-address limits count an IPv4 address as itself and an IPv6 address by its /64.
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../src/lib/client-address.ts';

describe('addressKey', () => {
  it('counts IPv4 (also IPv4-mapped) as itself and IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
  });
});
