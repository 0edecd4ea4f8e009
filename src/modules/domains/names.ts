// Custom domain names: what an owner may attach to a site. Lower case ASCII (international names
// in punycode), under a known public suffix, not an IP address, not the service's own sites domain
// or API host.
import { domainToASCII } from 'node:url';
import { parse } from 'tldts';
import { invalid } from '../common/errors.ts';

export interface DomainName {
  domain: string;
  /** The labels left of the registrable domain (`www` for www.example.com); null for an apex. */
  subdomain: string | null;
}

/** `apiHostname`: PUBLIC_URL's host name (no port), which answers the API and can never be a site. */
export function parseDomainName(raw: string, sitesDomain: string, apiHostname?: string): DomainName {
  const trimmed = raw.trim().toLowerCase().replace(/\.$/, '');
  if (/[/:@?#\s]/.test(trimmed))
    throw invalid(`field 'domain': give a bare host name such as www.example.com (no scheme, port or path)`);
  const ascii = domainToASCII(trimmed);
  if (!ascii || ascii.length > 253)
    throw invalid(`field 'domain': '${raw.slice(0, 100)}' is not a valid host name`);
  if (!ascii.split('.').every((label) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label))) {
    throw invalid(`field 'domain': '${raw.slice(0, 100)}' is not a valid host name`);
  }
  const parsed = parse(ascii);
  if (parsed.isIp) throw invalid(`field 'domain': an IP address cannot be a custom domain`);
  if (!parsed.domain || !parsed.isIcann)
    throw invalid(`field 'domain': '${ascii}' is not under a known public suffix`);
  const sitesHost = sitesDomain.replace(/:\d+$/, '');
  if (ascii === sitesHost || ascii.endsWith(`.${sitesHost}`)) {
    throw invalid(
      `field 'domain': names under the service's own sites domain (${sitesHost}) are given to projects automatically`,
    );
  }
  if (ascii === apiHostname) {
    throw invalid(`field 'domain': ${ascii} is the service's own API host`);
  }
  return { domain: ascii, subdomain: parsed.subdomain || null };
}
