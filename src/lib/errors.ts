// Errors that the domain raises and the HTTP layer turns into `{"error": "..."}` responses.
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const forbidden = (message: string) => new ApiError(403, message);
/** Another organization's record is indistinguishable from a missing one. */
export const notFound = (what: string) => new ApiError(404, `${what} not found`);
