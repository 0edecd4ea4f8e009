// The edge's answers on the raw node:http response: one set of writers (text, HTML, JSON) and one
// refusal type for pages, forms and the beacon alike, and the one place where the core's domain
// errors become status codes on a site host.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { escapeHtml } from '../lib/html.ts';
import {
  InvalidInputError,
  NotFoundError,
  RateLimitedError,
  TooLargeError,
} from '../modules/common/errors.ts';

/** Answers about one request at one moment (errors, form replies): no cache may keep them. */
export const NO_STORE: OutgoingHttpHeaders = { 'cache-control': 'no-store' };

/** A refusal with the status (and headers, such as Retry-After or Allow) the edge answers it with. */
export class EdgeError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: OutgoingHttpHeaders = {},
  ) {
    super(message);
  }
}

/** The refusal an error stands for; undefined for anything else (a fault: the caller's 500). */
export function edgeErrorOf(error: unknown): EdgeError | undefined {
  if (error instanceof EdgeError) return error;
  if (error instanceof RateLimitedError)
    return new EdgeError(429, error.message, { 'retry-after': String(error.retryAfterSeconds) });
  if (error instanceof InvalidInputError) return new EdgeError(400, error.message);
  if (error instanceof TooLargeError) return new EdgeError(413, error.message);
  if (error instanceof NotFoundError) return new EdgeError(404, error.message);
  return undefined;
}

/** Like edgeErrorOf, but a fault is thrown on, to the handler that logs it and answers 500. */
export function asEdgeError(error: unknown): EdgeError {
  const refusal = edgeErrorOf(error);
  if (!refusal) throw error;
  return refusal;
}

// Node leaves out the body of an answer to HEAD by itself, so the writers always pass it.

export function sendText(
  res: ServerResponse,
  status: number,
  message: string,
  headers: OutgoingHttpHeaders = {},
): void {
  send(res, status, 'text/plain; charset=utf-8', Buffer.from(`${message}\n`), { ...headers, ...NO_STORE });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  send(res, status, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(body)), {
    ...headers,
    ...NO_STORE,
  });
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: Buffer | string,
  headers: OutgoingHttpHeaders = {},
): void {
  send(res, status, 'text/html; charset=utf-8', typeof html === 'string' ? Buffer.from(html) : html, {
    ...headers,
    ...NO_STORE,
  });
}

/** A small page of the edge's own: a heading, then HTML (already escaped) below it. */
export function htmlPage(title: string, body: string, style = ''): string {
  const head = `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>${style && `<style>${style}</style>`}`;
  return `<!doctype html><html lang="en"><head>${head}</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>\n`;
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: Buffer,
  headers: OutgoingHttpHeaders,
): void {
  // An answer already begun (a failure while it went out) is only finished, never patched.
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': body.length }).end(body);
}
