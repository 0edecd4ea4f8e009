// The error bodies and shared answers of the REST API's route schemas.
import { Type } from '@sinclair/typebox';
import { Uuid } from '../modules/common/schema.ts';

export const ErrorBody = Type.Object(
  { error: Type.String({ description: 'Human-readable message' }) },
  { additionalProperties: false, description: 'Every failure' },
);

const ERROR_MEANINGS: Record<number, string> = {
  400: 'Malformed request, or a field or parameter failed validation',
  401: 'Missing or invalid API key',
  403: 'The key lacks the permission this operation needs, or a plan limit was reached',
  404: 'No such record in the caller organization',
  409: 'Conflicts with an existing record',
  413: 'Request body too large',
  415: 'Content-Type is not application/json on a write',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Failure on the service side; safe to retry',
  503: 'Too many large uploads being received at once; see Retry-After',
};

/** Error responses for a route's schema: 401, 429 and 500 always, plus the ones named. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  const all = [...new Set([401, 429, 500, ...statuses])].sort();
  return Object.fromEntries(
    all.map((s) => [s, Type.Object(ErrorBody.properties, { ...ErrorBody, description: ERROR_MEANINGS[s] })]),
  );
}

export const DeletedBody = Type.Object(
  { deleted: Type.Boolean(), id: Uuid() },
  { additionalProperties: false },
);
