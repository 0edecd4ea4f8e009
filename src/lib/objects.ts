// What JSON-shaped input is, checked before its fields are read.

/** A plain object: not null, not an array (what `{...}` in JSON parses to). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
