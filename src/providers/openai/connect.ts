// Organizations' own OpenAI-compatible endpoints (Settings → AI model): the adapter behind the
// core's ConnectEndpoint port. Unless the operator allows private endpoints, every connection is
// checked after DNS resolution (a name can point anywhere later), address literals included.
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { isRefusedAddress, refusingLookup } from '../../lib/address-policy.ts';
import { OPENAI_URL } from '../../modules/generations/org-model.ts';
import type { ConnectEndpoint } from '../../modules/generations/provider.ts';
import { OpenAiProvider } from './openai.ts';

export function endpointConnector(settings: {
  timeoutMs: number;
  allowPrivateEndpoints: boolean;
}): ConnectEndpoint {
  let fetch: typeof globalThis.fetch | undefined;
  return ({ baseUrl, apiKey }) => {
    // One connection pool for every organization's endpoint, refusing private addresses unless allowed.
    if (!settings.allowPrivateEndpoints) fetch ??= refusingFetch();
    // A keyless endpoint (Ollama) ignores the header; the client wants some key.
    return new OpenAiProvider({
      apiKey: apiKey ?? 'none',
      baseUrl: baseUrl ?? OPENAI_URL,
      models: [],
      timeoutMs: settings.timeoutMs,
      ...(fetch ? { fetch } : {}),
    });
  };
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
