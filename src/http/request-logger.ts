// Fastify gives every request a pino child logger carrying its request id. pino builds a child
// eagerly (it serializes the bindings at once), which costs a few µs per request even when
// nothing is logged: with LOG_LEVEL above `info` a normal request never logs at all. This factory
// hands out a stand-in that builds the real child on the first line actually written, so a line
// still carries the request id, and a request that logs nothing pays for one small object.
import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

class RequestLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private materialize(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options) as FastifyBaseLogger);
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.parent.isLevelEnabled(level)) return;
    (this.materialize()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.materialize().level = level;
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.materialize().child(bindings, options);
  }
  isLevelEnabled(level: string): boolean {
    return this.parent.isLevelEnabled(level);
  }
}

export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  // Without a logger (`logger: false`) Fastify's stand-in writes nothing and its child is itself;
  // a route with its own log level gets a real child at once: the level belongs to the child.
  if (typeof (logger as Partial<Logger>).isLevelEnabled !== 'function' || options.level)
    return logger.child(bindings, options);
  return new RequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
};

/** Whether `info` lines are written (Fastify's stand-in for `logger: false` has no isLevelEnabled, and writes nothing). */
export const writesInfo = (log: FastifyBaseLogger): boolean =>
  (log as Partial<Logger>).isLevelEnabled?.('info') ?? false;

// Secrets that travel in a URL, and so reached the info log's "incoming request" line: the
// tokens of reset, invitation and sign-up confirmation links (the path segment after these), the
// build link's tokens and its whole prompt (query parameters). A `next` that holds one of them
// (the sign-in page's way back to a build link) is redacted whole.
const SECRET_PATH = /^(\/(?:reset-password|invitations|sign-up\/confirm)\/)[^/?#]+/;
const SECRET_PARAMS = new Set(['link', 'pending', 'prompt']);
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

/**
 * Fastify's `req` serializer (the "incoming request" line), with the URL redacted. Only run when
 * that line is written, so a request at a level above `info` pays nothing.
 */
export function requestForLog(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
