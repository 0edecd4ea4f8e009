// An organization's own AI endpoint (Settings → AI model) is a URL a member typed, called from
// the server: on an installation where strangers can open organizations it must not reach the
// server's own network. The URL is checked as written when it is saved; every connection is checked
// again after DNS resolution by the adapter (providers/openai/connect.ts), as webhooks are.
import { isIP } from 'node:net';
import { bareHost, isLocalName, isRefusedAddress } from '../../lib/address-policy.ts';
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
