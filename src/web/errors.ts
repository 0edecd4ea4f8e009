// The status a domain error answers with, for every HTTP way in: the core's errors
// (modules/common/errors.ts) know no status codes.
import {
  ConflictError,
  InvalidInputError,
  NotAllowedError,
  NotFoundError,
  RateLimitedError,
  TooLargeError,
  UpstreamError,
  type DomainError,
} from '../modules/common/errors.ts';

const DOMAIN_STATUS: [new (...args: never[]) => DomainError, number][] = [
  [NotFoundError, 404],
  [InvalidInputError, 400],
  [NotAllowedError, 403],
  [ConflictError, 409],
  [TooLargeError, 413],
  [RateLimitedError, 429],
  [UpstreamError, 502],
];

/** The status and headers a domain error answers with (a rate limit says when to come back). */
export function domainErrorStatus(error: DomainError): { status: number; headers: Record<string, string> } {
  const status = DOMAIN_STATUS.find(([kind]) => error instanceof kind)?.[1] ?? 400;
  const headers: Record<string, string> =
    error instanceof RateLimitedError ? { 'retry-after': String(error.retryAfterSeconds) } : {};
  return { status, headers };
}
