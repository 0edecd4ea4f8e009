// Form posts from published sites, on the raw request: any <form> posting to the site's own
// /_forms/{name} is read here (a body over FORM_MAX_BYTES is refused as it streams in) and handed
// to the forms service, which limits, stores and records the event. Answers are pages for
// browsers, JSON for scripts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FormSite, FormsService } from '../modules/forms/service.ts';
import { escapeHtml } from '../lib/html.ts';
import { readBody } from './read-body.ts';
import { sameSitePath } from './same-site.ts';
import { asEdgeError, EdgeError, htmlPage, sendHtml, sendJson } from './respond.ts';

export const FORM_PATH = /^\/_forms\/([A-Za-z0-9_-]{1,64})(\/thanks)?\/?$/;
const THANKS_STYLE = 'body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;padding:1rem;color:#1f2937}main{max-width:32rem;text-align:center}a{color:#1d4ed8}';

export async function handleForm(
  req: IncomingMessage,
  res: ServerResponse,
  match: RegExpExecArray,
  site: FormSite,
  ip: string,
  deps: { forms: FormsService; maxBytes: number },
): Promise<void> {
  const form = match[1]!;
  if (match[2]) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return refusalPage(res, new EdgeError(405, 'Method not allowed', { allow: 'GET, HEAD' }));
    return thankYou(res, new URL(req.url!, 'http://x').searchParams.get('back'));
  }
  if (req.method !== 'POST') return refusalPage(res, new EdgeError(405, 'Forms accept POST only', { allow: 'POST' }));
  const wantsJson = /application\/json/.test(String(req.headers.accept ?? '')) || /application\/json/.test(String(req.headers['content-type'] ?? ''));
  try {
    await deps.forms.admit(site, ip);
    const body = await readBody(req, deps.maxBytes, `The form is too large (at most ${deps.maxBytes} bytes)`);
    const page = pageOf(req.headers.referer, req.headers.host);
    await deps.forms.submit(site, form, parseEntries(String(req.headers['content-type'] ?? ''), body), page);
    if (wantsJson) return sendJson(res, 200, { ok: true, message: 'Thank you! Your message has been sent.' });
    res.writeHead(303, { location: `/_forms/${form}/thanks${page ? `?back=${encodeURIComponent(page)}` : ''}` }).end();
  } catch (error) {
    const refusal = asEdgeError(error);
    if (wantsJson) return sendJson(res, refusal.status, { error: refusal.message }, refusal.headers);
    refusalPage(res, refusal);
  }
}

/** The posted fields as (name, value) pairs, from a urlencoded or JSON body. */
function parseEntries(contentType: string, body: string): [string, unknown][] {
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    const grouped = new Map<string, string[]>();
    for (const [k, v] of new URLSearchParams(body)) grouped.set(k, [...(grouped.get(k) ?? []), v]);
    return [...grouped].map(([k, vs]) => [k, vs.join(', ')]);
  }
  if (/^application\/json/i.test(contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new EdgeError(400, 'The form body is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new EdgeError(400, 'The form body must be a JSON object');
    return Object.entries(parsed);
  }
  throw new EdgeError(415, 'Send the form as application/x-www-form-urlencoded or application/json');
}

/** The path of the posting page, when the Referer is on this very site. */
function pageOf(referer: string | undefined, host: string | undefined): string | null {
  if (!referer || !host) return null;
  try {
    const url = new URL(referer);
    return url.host.toLowerCase() === host.toLowerCase() ? url.pathname : null;
  } catch {
    return null;
  }
}

/** A refusal as a page, for a browser that posted a plain form. */
function refusalPage(res: ServerResponse, refusal: EdgeError): void {
  sendHtml(res, refusal.status, htmlPage(refusal.message, '<p><a href="/">Back to the site</a></p>'), refusal.headers);
}

function thankYou(res: ServerResponse, back: string | null): void {
  const body = `<p>Your message has been sent. We will get back to you soon.</p><p><a href="${escapeHtml(sameSitePath(back))}">Back to the page</a></p>`;
  sendHtml(res, 200, htmlPage('Thank you!', body, THANKS_STYLE));
}
