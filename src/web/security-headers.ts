// The security headers of the answers that are not pages: the REST API, the MCP server, the OAuth
// endpoints and their metadata under /.well-known (the pages get theirs from helmet, ui/plugin.ts).
// Built once per app, from PUBLIC_URL; a hook only copies the ready object onto the reply, which
// costs the API next to nothing.

/** An answer that is data: nothing in it may load, run or be framed, even if a browser renders it. */
export const JSON_ANSWER_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** What helmet sends on the pages, so the two never disagree. */
const HSTS = 'max-age=31536000; includeSubDomains';

export type HeaderSet = Readonly<Record<string, string>>;

/**
 * nosniff (a JSON answer is never sniffed into HTML or script), and HSTS when PUBLIC_URL is
 * https. For every answer, pages included: helmet sends them the same values.
 */
export function transportHeaders(publicUrl: string): HeaderSet {
  const https = new URL(publicUrl).protocol === 'https:';
  return Object.freeze({
    'x-content-type-options': 'nosniff',
    ...(https ? { 'strict-transport-security': HSTS } : {}),
  });
}

/** transportHeaders and the policy of a data answer. */
export function jsonAnswerHeaders(publicUrl: string): HeaderSet {
  return Object.freeze({ ...transportHeaders(publicUrl), 'content-security-policy': JSON_ANSWER_POLICY });
}
