// Form posts from published sites, on the raw request: any <form> posting to the site's own
// /_forms/{name} is read here (a body over FORM_MAX_BYTES is refused as it streams in) and handed
// to the forms service, which limits, stores and records the event. Answers are pages for
// browsers, JSON for scripts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidInputError, RateLimitedError } from '../modules/common/errors.ts';
import type { FormSite, FormsService } from '../modules/forms/service.ts';
import { escapeHtml } from '../lib/html.ts';
import { readBody } from './read-body.ts';

export const FORM_PATH = /^\/_forms\/([A-Za-z0-9_-]{1,64})(\/thanks)?\/?$/;

/** A refusal with the status the edge answers it with. */
class FormError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

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
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, req, 405, 'Method not allowed');
    return thankYou(res, new URL(req.url!, 'http://x').searchParams.get('back'));
  }
  if (req.method !== 'POST') return reply(res, req, 405, 'Forms accept POST only');
  const wantsJson = /application\/json/.test(String(req.headers.accept ?? '')) || /application\/json/.test(String(req.headers['content-type'] ?? ''));
  try {
    await deps.forms.admit(site, ip);
    const max = deps.maxBytes;
    const body = await readBody(req, max, () => new FormError(413, `The form is too large (at most ${max} bytes)`));
    const page = pageOf(req.headers.referer, req.headers.host);
    await deps.forms.submit(site, form, parseEntries(String(req.headers['content-type'] ?? ''), body), page);
    if (wantsJson) return json(res, 200, { ok: true, message: 'Thank you! Your message has been sent.' });
    res.writeHead(303, { location: `/_forms/${form}/thanks${page ? `?back=${encodeURIComponent(page)}` : ''}` }).end();
  } catch (error) {
    const refusal = asFormError(error, res);
    if (wantsJson) return json(res, refusal.status, { error: refusal.message });
    reply(res, req, refusal.status, refusal.message);
  }
}

function asFormError(error: unknown, res: ServerResponse): FormError {
  if (error instanceof FormError) return error;
  if (error instanceof RateLimitedError) {
    res.setHeader('retry-after', String(error.retryAfterSeconds));
    return new FormError(429, error.message);
  }
  if (error instanceof InvalidInputError) return new FormError(400, error.message);
  throw error;
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
      throw new FormError(400, 'The form body is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FormError(400, 'The form body must be a JSON object');
    return Object.entries(parsed);
  }
  throw new FormError(415, 'Send the form as application/x-www-form-urlencoded or application/json');
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

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' }).end(text);
}

function reply(res: ServerResponse, req: IncomingMessage, status: number, message: string): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(message)}</title></head><body><main><h1>${escapeHtml(message)}</h1><p><a href="/">Back to the site</a></p></main></body></html>\n`;
  if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : html);
}

function thankYou(res: ServerResponse, back: string | null): void {
  const target = back && back.startsWith('/') && !back.startsWith('//') ? back : '/';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Thank you</title><style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;padding:1rem;color:#1f2937}main{max-width:32rem;text-align:center}a{color:#1d4ed8}</style></head><body><main><h1>Thank you!</h1><p>Your message has been sent. We will get back to you soon.</p><p><a href="${escapeHtml(target)}">Back to the page</a></p></main></body></html>\n`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
}
