// One delivery attempt: a signed POST with a hard timeout. Only a 2xx answer is a success; a
// redirect is a failure like any other non-2xx (Location is never followed).
import http from 'node:http';
import https from 'node:https';
import { formatDuration } from '../lib/duration.ts';
import { webhookHeaders } from './signer.ts';
import { createAgents, describeGuardError, schemeProblem, type Agents } from './url-guard.ts';

/** What the attempt log keeps of a response body. */
export const RESPONSE_BODY_LIMIT = 2048;
/** Past this much body we stop reading and drop the connection rather than reuse it. */
const DRAIN_LIMIT = 64 * 1024;

export interface AttemptTarget {
  url: string;
  /** The event id: the webhook-id header, the same on every retry and every endpoint. */
  eventId: string;
  payload: string;
  /** Current secret first; the previous one too while a rotation overlaps. */
  secrets: string[];
}

export interface AttemptResult {
  attemptedAt: string;
  durationMs: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  /** From Retry-After on a 429 or 503, in milliseconds. */
  retryAfterMs: number | null;
}

export class WebhookSender {
  private readonly agents: Agents;

  constructor(private readonly opts: { timeoutMs: number; allowPrivate: boolean }) {
    this.agents = createAgents(opts.allowPrivate);
  }

  async send(target: AttemptTarget): Promise<AttemptResult> {
    const started = Date.now();
    const finish = (fields: Partial<AttemptResult>): AttemptResult => ({
      attemptedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      ok: false,
      statusCode: null,
      error: null,
      responseBody: null,
      retryAfterMs: null,
      ...fields,
    });
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return finish({ error: 'refused: the endpoint URL is not a valid URL' });
    }
    const problem = schemeProblem(url, this.opts.allowPrivate);
    if (problem) return finish({ error: problem });
    try {
      const response = await this.post(url, target);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return finish({
        ok,
        statusCode: response.statusCode,
        responseBody: response.body,
        retryAfterMs:
          response.statusCode === 429 || response.statusCode === 503
            ? parseRetryAfter(response.retryAfter)
            : null,
        error: ok
          ? null
          : response.statusCode >= 300 && response.statusCode < 400
            ? `redirect to ${response.location ?? '?'} not followed`
            : null,
      });
    } catch (error) {
      return finish({ error: this.describe(error as NodeJS.ErrnoException, url) });
    }
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private post(url: URL, target: AttemptTarget) {
    type Response = {
      statusCode: number;
      body: string;
      retryAfter: string | undefined;
      location: string | undefined;
    };
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(target.payload)),
      'user-agent': 'Sitewright-Webhooks/1.0',
      ...webhookHeaders(target.eventId, target.payload, target.secrets),
    };
    const secure = url.protocol === 'https:';
    return new Promise<Response>((resolve, reject) => {
      const request = (secure ? https : http).request(url, {
        method: 'POST',
        headers,
        agent: secure ? this.agents.https : this.agents.http,
      });
      const timer = setTimeout(
        () => request.destroy(new TimeoutError(this.opts.timeoutMs)),
        this.opts.timeoutMs,
      );
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      request.on('error', fail);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
          size += chunk.length;
          if (size > DRAIN_LIMIT) response.destroy();
        });
        const done = () => {
          clearTimeout(timer);
          resolve({
            statusCode: response.statusCode ?? 0,
            // PostgreSQL text cannot hold NUL; invalid UTF-8 becomes U+FFFD.
            body: new TextDecoder()
              .decode(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT))
              .replaceAll('\u0000', ''),
            retryAfter: response.headers['retry-after'],
            location: response.headers.location,
          });
        };
        response.on('end', done);
        // A body cut short past the drain limit still counts: the status line is what matters.
        response.on('close', done);
        response.on('error', fail);
      });
      request.end(target.payload);
    });
  }

  private describe(error: NodeJS.ErrnoException, url: URL): string {
    if (error instanceof TimeoutError) return error.message;
    const guard = describeGuardError(error);
    if (guard) return guard;
    switch (error.code) {
      case 'ECONNREFUSED':
        return `connection refused by ${url.host}`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `DNS lookup failed for ${url.hostname}`;
      case 'ECONNRESET':
        return `connection reset by ${url.host}`;
      default:
        return `${error.code ? error.code + ': ' : ''}${error.message}`;
    }
  }
}

class TimeoutError extends Error {
  constructor(ms: number) {
    super(`timed out after ${formatDuration(ms)}`);
  }
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from now; null when absent or malformed. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
