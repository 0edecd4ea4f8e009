// Which IP addresses outgoing requests (webhooks, organizations' AI endpoints) may reach: only global unicast. One decision
// for the registration check and the connect-time check. An address that embeds an IPv4 address
// (IPv4-mapped, SIIT, NAT64 64:ff9b::/96, 6to4) is judged by the address it embeds, since that is
// where the packets go; deprecated and tunnelling forms whose target cannot be read or has no
// legitimate use here (IPv4-compatible ::a.b.c.d, site-local fec0::/10, Teredo, local NAT64
// 64:ff9b:1::/48) are refused outright, as is everything outside 2000::/3 (loopback, unspecified,
// unique-local, link-local, multicast, discard).
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Worded as request-filtering-agent words its refusals, so describeGuardError (events/url-guard.ts) reads both. */
export const refusal = (address: string, family: unknown, host: string | undefined): Error =>
  new Error(
    `DNS lookup ${address}(family:${String(family)}, host:${host}) is not allowed. Because, it is a refused address.`,
  );

/** A connection's lookup, refusing any resolved address `isRefusedAddress` refuses. */
export function refusingLookup(base: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const all: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 0 }];
      const refused = all.find((a) => isRefusedAddress(a.address));
      if (refused)
        return callback(
          refusal(refused.address, refused.family, hostname) as NodeJS.ErrnoException,
          address,
          family,
        );
      callback(null, address, family);
    });
  };
}

/** A URL's host as written: brackets and a fully qualified name's trailing dot (`localhost.`) gone. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');

/** `localhost`, `*.local`, `*.internal`: names that point inside, whatever they resolve to. */
export const isLocalName = (host: string): boolean => /(^|\.)(localhost|local|internal)$/i.test(host);

/** True when `address` (an IPv4 or IPv6 literal, no brackets) must not be connected to. */
export function isRefusedAddress(address: string): boolean {
  const text = address.includes(':') ? canonicalIPv6(address) : address;
  // Only a strict literal is an address to judge; anything else (`010.0.0.1`, `1.2.3`) is refused.
  if (text === null || isIP(text) === 0) return true;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const bytes = (parsed as ipaddr.IPv6).toByteArray();
  const embedded = embeddedIPv4(bytes);
  if (embedded) return isRefusedAddress(embedded);
  // Global unicast is 2000::/3; within it, ipaddr.js names the special blocks (Teredo 2001::/32,
  // documentation, benchmarking, ORCHID, AMT, ...) and calls only the rest `unicast`.
  if ((bytes[0]! & 0xe0) !== 0x20) return true;
  return parsed.range() !== 'unicast';
}

/**
 * The all-hex form of an IPv6 literal, as the WHATWG URL parser writes it. ipaddr.js 2.5 reads a
 * dotted tail as IPv4-mapped (`::8.8.8.8` as `::ffff:8.8.8.8`), so it never sees one.
 */
function canonicalIPv6(address: string): string | null {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

const zeros = (bytes: number[], from: number, to: number): boolean =>
  bytes.slice(from, to).every((b) => b === 0);
const v4 = (bytes: number[], at: number): string => bytes.slice(at, at + 4).join('.');

/** The IPv4 address a translating or tunnelling IPv6 form delivers to, if it is one. */
function embeddedIPv4(b: number[]): string | null {
  // ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (SIIT, RFC 6145)
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(b, 12);
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12)) return v4(b, 12);
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix, RFC 6052)
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(b, 4, 12)) return v4(b, 12);
  // 2002:aabb:ccdd::/48 (6to4, RFC 3056)
  if (b[0] === 0x20 && b[1] === 0x02) return v4(b, 2);
  return null;
}
