// Connect-time SSRF protection. The registration check (modules/webhooks/url-policy.ts) looks at
// the URL as written; a host name can resolve to anything later, so every connection is checked
// again after DNS resolution, right before the socket connects. request-filtering-agent refuses
// what ipaddr.js calls non-unicast; in front of it, our own check (lib/address-policy.ts, the one
// the registration check uses) also refuses the forms it lets through: IPv4-compatible
// ::a.b.c.d, site-local fec0::/10, NAT64 and 6to4 addresses embedding a refused IPv4 address.
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction, type TcpNetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { isRefusedAddress, refusal, refusingLookup } from '../lib/address-policy.ts';

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/** Keep-alive agents; with allowPrivate (WEBHOOKS_ALLOW_PRIVATE, development only) they filter nothing. */
export function createAgents(allowPrivate: boolean): Agents {
  const options = { keepAlive: true, maxFreeSockets: 64 };
  if (allowPrivate) return { http: new http.Agent(options), https: new https.Agent(options) };
  return { http: new GuardedHttpAgent(options), https: new GuardedHttpsAgent(options) };
}

type Listener = (error: Error | null, socket: Duplex) => void;

/** Checks an address literal before connecting, and every resolved address of a name. */
function guardConnection(
  options: TcpNetConnectOpts,
  listener: Listener | undefined,
  connect: (options: TcpNetConnectOpts) => Duplex,
): Duplex {
  const { host } = options;
  if (host !== undefined && net.isIP(host) !== 0 && isRefusedAddress(host)) {
    const socket = new net.Socket();
    const error = refusal(host, undefined, undefined);
    if (listener) listener(error, socket);
    else socket.destroy(error);
    return socket;
  }
  return connect({ ...options, lookup: refusingLookup(options.lookup ?? (dnsLookup as LookupFunction)) });
}

class GuardedHttpAgent extends RequestFilteringHttpAgent {
  override createConnection(options: TcpNetConnectOpts, listener?: Listener): Duplex {
    return guardConnection(options, listener, (guarded) => super.createConnection(guarded, listener));
  }
}

class GuardedHttpsAgent extends RequestFilteringHttpsAgent {
  override createConnection(options: TcpNetConnectOpts, listener?: Listener): Duplex {
    return guardConnection(options, listener, (guarded) => super.createConnection(guarded, listener));
  }
}

/** The URL problem that stops a delivery before any connection, or null. */
export function schemeProblem(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowPrivate) return null;
  return `refused: ${url.protocol.replace(':', '')} URLs are not delivered to; endpoints must use https`;
}

const GUARD_MESSAGE = /^DNS lookup (.+?)\(family:[^,]*, host:(.*?)\) is not allowed/;

/** Rewrites request-filtering-agent's refusal into a message an agency developer can act on. */
export function describeGuardError(error: Error): string | null {
  const match = GUARD_MESSAGE.exec(error.message);
  if (!match) return null;
  const [, address, host] = match;
  const via =
    host && host !== 'undefined' && host !== address ? `${host} resolves to ${address}, ` : `${address} is `;
  return `refused by the SSRF guard: ${via}a private, loopback, link-local or reserved address`;
}
