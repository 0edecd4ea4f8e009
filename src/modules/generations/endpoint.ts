// An organization's own AI endpoint (Settings → AI model) is a URL a member typed, called from
// the server: on an installation where strangers can open organizations it must not reach the
// server's own network. The URL is checked as written when it is saved, and every connection is
// checked again after DNS resolution (a name can point anywhere later), as webhooks are.
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { bareHost, isLocalName, isRefusedAddress, refusingLookup } from '../../lib/address-policy.ts';
import { invalid } from '../common/errors.ts';

/** The endpoint's base URL as the client calls it (no trailing slash), or an error naming `field`. */
export function checkEndpointUrl(raw: string, allowPrivate: boolean, field = 'base_url'): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(
      `field '${field}' must be a URL such as https://api.openai.com/v1 or http://localhost:11434/v1`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid(`field '${field}' must be an http or https URL`);
  if (url.username || url.password)
    throw invalid(`field '${field}' must not contain credentials (the key has its own field)`);
  if (url.search || url.hash) throw invalid(`field '${field}' must not have a query or a fragment`);
  const text = url.toString().replace(/\/+$/, '');
  if (allowPrivate) return text;
  if (url.protocol !== 'https:')
    throw invalid(
      `field '${field}' must be an https URL (this installation refuses private addresses, so a local endpoint is not possible here)`,
    );
  const host = bareHost(url);
  if (isLocalName(host) || (isIP(host) !== 0 && isRefusedAddress(host))) {
    throw invalid(
      `field '${field}' must not point at a private, loopback or reserved address on this installation (its operator can allow it with AI_ALLOW_PRIVATE_ENDPOINTS=true)`,
    );
  }
  return text;
}

/** A fetch whose connections never reach a refused address, address literals included. */
export function refusingFetch(): typeof fetch {
  const connector = buildConnector({ lookup: refusingLookup(dnsLookup as LookupFunction) });
  const dispatcher = new Agent({
    connect: (options, callback) => {
      const host = options.hostname.replace(/^\[|\]$/g, '');
      // A literal is never looked up: judged here.
      if (isIP(host) !== 0 && isRefusedAddress(host))
        return callback(new Error(`${host} is a private, loopback or reserved address`), null);
      return connector(options, callback);
    },
  });
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch;
}
