// Who is asking: the client address behind trusted front proxies. One setting (TRUST_PROXY) drives
// every way in (the pages, the API, OAuth, MCP and the site hosts), so that all of them count
// the same visitor. The address is the rightmost one in X-Forwarded-For that a trusted proxy did
// not add: the leftmost is whatever the client wrote, so it is never believed.
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

/** false: no proxy; a number: that many proxies in front, whatever their address; else the proxies' ranges. */
export type TrustProxy = false | number | string[];

/** Whether the hop at `index` (0: the socket's peer) with address `addr` is a trusted proxy. */
export type TrustFunction = (addr: string, index: number) => boolean;

/** `true` of earlier versions: proxies on loopback or a private network. */
const PRIVATE_NETWORKS = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Parses TRUST_PROXY: `false`, `true` (loopback and private networks), a hop count (1-10), or a
 * comma-separated list of addresses and CIDRs. Throws an Error saying what is wrong.
 */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return PRIVATE_NETWORKS;
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 10) throw new Error('a hop count must be between 1 and 10');
    return hops;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // compile() throws on an entry that is neither an address, a range nor a known name.
  try {
    proxyAddr.compile(entries);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; expected false, true, a hop count, or addresses and CIDRs such as 127.0.0.1,10.0.0.0/8`,
    );
  }
  return entries;
}

export function trustFunction(setting: TrustProxy): TrustFunction {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_addr, index) => index < setting;
  return proxyAddr.compile(setting);
}

/** The client's address: the socket's, or the rightmost untrusted X-Forwarded-For entry. */
export function clientAddress(req: IncomingMessage, trust: TrustFunction): string {
  return proxyAddr(req, trust) ?? req.socket.remoteAddress ?? '';
}

/**
 * The key that counts an address in per-address limits: an IPv4 address (also when written as
 * IPv4-mapped IPv6), or an IPv6 address's /64 (one subscriber commonly holds a whole /64, so
 * counting single IPv6 addresses would give one person 2^64 quotas).
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

/** Whether a proxy forwarded the request (X-Forwarded-For, Forwarded or X-Real-IP): its socket is then the proxy's, not the caller's. */
export function isForwarded(headers: Record<string, string | string[] | undefined>): boolean {
  // Present at all, even empty: an empty X-Forwarded-For must not hide an X-Real-IP behind it.
  return ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((name) => headers[name] !== undefined);
}
