// TypeBox helpers for the records and inputs each domain's schema.ts declares. The same schemas
// validate REST bodies, document the API and type the services.
import { Type, type TSchema, type Static, type TUnsafe } from '@sinclair/typebox';

/** A string enum as plain JSON Schema `enum`, so validation errors list the allowed values. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: object = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A primitive that may also be null, as `type: [T, "null"]` (OpenAPI 3.1). */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

export const Uuid = (options: object = {}) => Type.String({ format: 'uuid', ...options });
export const DateTime = (options: object = {}) => Type.String({ format: 'date-time', ...options });

/** An input object: unknown fields are refused by name, never dropped. */
export function Body<T extends Record<string, TSchema>>(properties: T, options: object = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/**
 * Marks a string that may hold NUL characters (file content: bytes, not text stored as text).
 * Every other string of every input refuses NUL (a 400 naming the field), on both engines:
 * PostgreSQL text cannot hold it, and SQLite would store what PostgreSQL refuses.
 */
export const NUL_ALLOWED = 'x-nul-allowed';
