// Errors the core raises. They say what went wrong in the domain's words and know nothing of any
// way in: http/ maps each kind to a status code and `{"error": "..."}`, edge/ to its own pages,
// an MCP tool or the CLI to their own shapes.
export class DomainError extends Error {
  override name = 'DomainError';
  /** The same in words for the people of the pages (a client, a visitor), when the API's differ. */
  plain: string | undefined;
}

/** Gives an error its words for people (pages show them; the API keeps its precise message). */
export function forPeople<E extends DomainError>(error: E, text: string): E {
  error.plain = text;
  return error;
}

/** The record does not exist, or belongs to another organization (indistinguishable). */
export class NotFoundError extends DomainError {
  static of(what: string): NotFoundError {
    return new NotFoundError(`${what} not found`);
  }
}

/** A field or parameter has a value the rules refuse. */
export class InvalidInputError extends DomainError {}

/** The caller may not do this: a plan limit or an option the plan does not include. */
export class NotAllowedError extends DomainError {}

/** The change clashes with another record (a name already taken). */
export class ConflictError extends DomainError {}

/** Content over a size limit. */
export class TooLargeError extends DomainError {}

/** A quota is used up until `retryAfterSeconds` from now. */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => NotFoundError.of(what);
export const invalid = (message: string) => new InvalidInputError(message);
export const notAllowed = (message: string) => new NotAllowedError(message);

/** A service the core depends on (the payment processor) refused or did not answer. */
export class UpstreamError extends DomainError {}

export const conflict = (message: string) => new ConflictError(message);
export const upstream = (message: string) => new UpstreamError(message);
