// Address ranges an operator configures (TLS_ASK_ALLOW): a comma-separated list of CIDRs or single
// addresses, and whether a peer's address falls in one. IPv4-mapped IPv6 peers (`::ffff:10.0.0.5`,
// as a dual-stack socket reports IPv4 callers) are compared as the IPv4 address they are.
import ipaddr from 'ipaddr.js';

export type CidrList = [ipaddr.IPv4 | ipaddr.IPv6, number][];

/** The ranges of `text`; throws an Error naming the first entry that is not a CIDR or an address. */
export function parseCidrList(text: string): CidrList {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry): [ipaddr.IPv4 | ipaddr.IPv6, number] => {
      try {
        if (entry.includes('/')) return ipaddr.parseCIDR(entry);
        const address = ipaddr.parse(entry);
        return [address, address.kind() === 'ipv4' ? 32 : 128];
      } catch {
        throw new Error(`'${entry}' is not a CIDR range (such as 10.0.0.0/8 or fd00::/8) or an IP address`);
      }
    });
}

export function addressInList(address: string | undefined, list: CidrList): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  const peer = ipaddr.process(address);
  return list.some(([range, bits]) => range.kind() === peer.kind() && peer.match(range, bits));
}
