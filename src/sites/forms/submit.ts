// Form posts from published sites: any <form> posting to the site's own /_forms/{name} is
// accepted. The fields are stored with the form name, page and time, and a form.submitted event
// goes into the webhook outbox in the same transaction, so nothing is lost while the agency's
// endpoint is down. A filled-in hidden `_gotcha` field (a honeypot) and a per-IP limit stop
// simple spam; bodies over FORM_MAX_BYTES are refused.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SitesSettings } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { escapeHtml } from '../../lib/html.ts';
import { newId } from '../../lib/ids.ts';
import { insertSubmission } from '../../modules/submissions/repo.ts';
import { readBody } from '../read-body.ts';

export const FORM_PATH = /^\/_forms\/([A-Za-z0-9_-]{1,64})(\/thanks)?\/?$/;
const HONEYPOT = '_gotcha';
const MAX_FIELDS = 50;
const MAX_VALUE_LENGTH = 10_000;

export interface FormTarget {
  orgId: string;
  projectId: string;
}

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
  target: FormTarget,
  ip: string,
  deps: { database: Database; sites: SitesSettings; limiter: RateLimiter },
): Promise<void> {
  const form = match[1]!;
  if (match[2]) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, req, 405, 'Method not allowed');
    return thankYou(res, new URL(req.url!, 'http://x').searchParams.get('back'));
  }
  if (req.method !== 'POST') return reply(res, req, 405, 'Forms accept POST only');
  const wantsJson = /application\/json/.test(String(req.headers.accept ?? '')) || /application\/json/.test(String(req.headers['content-type'] ?? ''));
  try {
    const rate = await deps.limiter.consume(`${target.projectId}:${ip}`);
    if (!rate.allowed) {
      res.setHeader('retry-after', String(rate.resetSeconds));
      throw new FormError(429, 'Too many submissions from your address; please try again later');
    }
    const max = deps.sites.formMaxBytes;
    const body = await readBody(req, max, () => new FormError(413, `The form is too large (at most ${max} bytes)`));
    const fields = parseFields(String(req.headers['content-type'] ?? ''), body);
    const page = pageOf(req.headers.referer, req.headers.host);
    if (!fields[HONEYPOT]) {
      delete fields[HONEYPOT];
      await store(deps.database, target, form, fields, page);
    }
    if (wantsJson) return json(res, 200, { ok: true, message: 'Thank you! Your message has been sent.' });
    res.writeHead(303, { location: `/_forms/${form}/thanks${page ? `?back=${encodeURIComponent(page)}` : ''}` }).end();
  } catch (error) {
    if (!(error instanceof FormError)) throw error;
    if (wantsJson) return json(res, error.status, { error: error.message });
    reply(res, req, error.status, error.message);
  }
}

async function store(database: Database, target: FormTarget, form: string, fields: Record<string, string>, page: string | null): Promise<void> {
  const submission = { id: newId(), project_id: target.projectId, form, fields, page, created_at: new Date().toISOString() };
  await database.db.transaction().execute(async (trx) => {
    await insertSubmission(trx, target.orgId, submission);
    await recordEvent(trx, { orgId: target.orgId, type: 'form.submitted', data: { submission } });
  });
}

function parseFields(contentType: string, body: string): Record<string, string> {
  let entries: [string, unknown][];
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    const params = new URLSearchParams(body);
    const grouped = new Map<string, string[]>();
    for (const [k, v] of params) grouped.set(k, [...(grouped.get(k) ?? []), v]);
    entries = [...grouped].map(([k, vs]) => [k, vs.join(', ')]);
  } else if (/^application\/json/i.test(contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new FormError(400, 'The form body is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FormError(400, 'The form body must be a JSON object');
    entries = Object.entries(parsed);
  } else {
    throw new FormError(415, 'Send the form as application/x-www-form-urlencoded or application/json');
  }
  if (entries.length > MAX_FIELDS) throw new FormError(400, `A form may have at most ${MAX_FIELDS} fields`);
  const fields: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (key.length > 100) throw new FormError(400, 'Field names are at most 100 characters');
    fields[key] = (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, MAX_VALUE_LENGTH);
  }
  return fields;
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
