// The parent origins that may frame the embeddable builder: exact `https://host[:port]` origins,
// and `http://` for localhost and loopback (development). Anything else is refused by name.
import { invalid } from '../common/errors.ts';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The origin as browsers send it (lower case, no default port), or a 400 naming `field`. */
export function normalizeOrigin(text: string, field: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw invalid(`field '${field}': '${text}' is not an origin such as https://app.example.com`);
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if (!bare || !/^https?:\/\/[^/]+\/?$/i.test(text.trim()))
    throw invalid(`field '${field}': '${text}' must be an origin only (scheme, host, port), no path`);
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname))
    throw invalid(`field '${field}': '${text}' must use https (http only for localhost and loopback)`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid(`field '${field}': '${text}' must be an https origin`);
  return url.origin;
}

/** Each origin normalized, each once, at most `max`. */
export function normalizeOrigins(list: readonly string[], field: string, max = 20): string[] {
  const out = [...new Set(list.map((o) => normalizeOrigin(o, field)))];
  if (out.length > max) throw invalid(`field '${field}': at most ${max} origins`);
  return out;
}
