// Tool arguments are checked against the REST API's own schemas (modules/*/schema.ts), so a tool
// refuses exactly what its route refuses, with the same message.
import type { Static, TSchema } from '@sinclair/typebox';
import { checkedAgainst } from '../web/validation-message.ts';

/** The arguments (or a body among them) if the route's schema takes them, worded as the API words it. */
export function checked<T extends TSchema>(
  schema: T,
  value: unknown,
  what: 'field' | 'argument' = 'field',
): Static<T> {
  return checkedAgainst(schema, value, what, { whole: 'the arguments' });
}

/** A tool's answer kept under 20 KB: a list loses its last items (and says so) until it fits. */
export function withinAnswerSize<T extends Record<string, unknown>>(
  result: T,
  listKey?: keyof T,
  maxBytes = 20_000,
): T & { truncated?: boolean } {
  if (Buffer.byteLength(JSON.stringify(result)) <= maxBytes || !listKey) return result;
  const list = [...(result[listKey] as unknown[])];
  while (
    list.length > 0 &&
    Buffer.byteLength(JSON.stringify({ ...result, [listKey]: list, truncated: true })) > maxBytes
  )
    list.pop();
  return { ...result, [listKey]: list, truncated: true };
}
