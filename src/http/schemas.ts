// Schema helpers shared by every module's schema.ts.
import { Type, type TSchema, type Static, type TUnsafe } from '@sinclair/typebox';

/** A string enum as plain JSON Schema `enum`, so validation errors list the allowed values. */
export function StringEnum<const T extends readonly string[]>(values: T, options: object = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A primitive that may also be null, as `type: [T, "null"]` (OpenAPI 3.1). */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

export const Uuid = (options: object = {}) => Type.String({ format: 'uuid', ...options });
export const DateTime = (options: object = {}) => Type.String({ format: 'date-time', ...options });

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

/** A write's JSON body: unknown fields are refused by name, never dropped. */
export function Body<T extends Record<string, TSchema>>(properties: T, options: object = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}
