// The refusals a page shows in words instead of an error page: the input was refused, the state
// does not allow it (billing not connected), or a service it depends on (Stripe) said no.
import { ConflictError, InvalidInputError, UpstreamError } from '../modules/common/errors.ts';

export function isRefusal(error: unknown): error is InvalidInputError | ConflictError | UpstreamError {
  return (
    error instanceof InvalidInputError || error instanceof ConflictError || error instanceof UpstreamError
  );
}
