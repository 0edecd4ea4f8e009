// Secrets that travel in URLs, taken out wherever a URL is written down: request logs
// (web/log-redaction.ts) and traces (providers/otel/).
// Secrets that travel in a URL, and so reached the info log's "incoming request" line: the
// tokens of reset, invitation and sign-up confirmation links (the path segment after these), the
// build link's tokens and its whole prompt, and an OAuth code and state coming back from Connect
// with Stripe (query parameters). A `next` that holds one of them (the sign-in page's way back to
// a build link) is redacted whole.
const SECRET_PATH = /^(\/(?:reset-password|invitations|sign-up\/confirm)\/)[^/?#]+/;
const SECRET_PARAMS = new Set(['link', 'pending', 'prompt', 'code', 'state']);
const REDACTED = '[redacted]';

/** The URL as the log writes it: `/reset-password/[redacted]`, `/build?prompt=[redacted]&org=...`. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = (mark === -1 ? url : url.slice(0, mark)).replace(SECRET_PATH, `$1${REDACTED}`);
  return mark === -1 ? path : `${path}?${redactQuery(url.slice(mark + 1))}`;
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = decoded(pair.slice(0, eq));
      if (SECRET_PARAMS.has(name)) return `${pair.slice(0, eq)}=${REDACTED}`;
      if (name === 'next') {
        const next = decoded(pair.slice(eq + 1));
        if (redactUrl(next) !== next) return `${pair.slice(0, eq)}=${REDACTED}`;
      }
      return pair;
    })
    .join('&');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
