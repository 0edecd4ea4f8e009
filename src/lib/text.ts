// Text fields as the API takes them.
import { badRequest } from './errors.ts';

/** The value without leading and trailing spaces; a 400 naming the field when nothing is left. */
export function nonBlank(field: string, value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest(`field '${field}' must not be blank`);
  return trimmed;
}
