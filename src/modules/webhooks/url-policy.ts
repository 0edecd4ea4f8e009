// Registration-time check of a webhook URL. Delivery re-checks the resolved address at connect
// time (a name can change what it points to); this check catches the obvious cases early.
import { isIP } from 'node:net';
import { bareHost, isLocalName, isRefusedAddress } from '../../lib/address-policy.ts';
import { invalid } from '../common/errors.ts';

export function checkWebhookUrl(raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(`field 'url' must be a valid URL`);
  }
  const httpAllowed = allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) throw invalid(`field 'url' must be an https URL`);
  if (url.username || url.password) throw invalid(`field 'url' must not contain credentials`);
  if (allowPrivate) return url.toString();
  const host = bareHost(url);
  if (isLocalName(host)) throw invalid(`field 'url' must not point at a local host name`);
  // The URL parser has already written an address literal in its one canonical form.
  if (isIP(host) !== 0 && isRefusedAddress(host)) {
    throw invalid(`field 'url' must not point at a private, loopback or reserved address`);
  }
  return url.toString();
}
