// Text fields as the core takes them.
import { invalid } from './errors.ts';

/** The value without leading and trailing spaces; refused, naming the field, when nothing is left. */
export function nonBlank(field: string, value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw invalid(`field '${field}' must not be blank`);
  return trimmed;
}
