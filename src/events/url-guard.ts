// Connect-time SSRF protection. The registration check (modules/webhooks/url-policy.ts) looks at
// the URL as written; a host name can resolve to anything later, so every connection is checked
// again by request-filtering-agent after DNS resolution, right before the socket connects. It
// refuses every address that is not global unicast: loopback, private, link-local (including the
// cloud metadata address), CGNAT, multicast, unspecified, IPv6 loopback/ULA/link-local and
// IPv4-mapped forms of these.
import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/** Keep-alive agents; with allowPrivate (WEBHOOKS_ALLOW_PRIVATE, development only) they filter nothing. */
export function createAgents(allowPrivate: boolean): Agents {
  const options = { keepAlive: true, maxFreeSockets: 64 };
  if (allowPrivate) return { http: new http.Agent(options), https: new https.Agent(options) };
  return { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
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
  const via = host && host !== 'undefined' && host !== address ? `${host} resolves to ${address}, ` : `${address} is `;
  return `refused by the SSRF guard: ${via}a private, loopback, link-local or reserved address`;
}
