// Tool arguments are checked against the REST API's own schemas (modules/*/schema.ts), so a tool
// refuses exactly what its route refuses, with the same message.
import type { Static, TSchema } from '@sinclair/typebox';
import { invalid } from '../modules/common/errors.ts';
import { makeValidator } from '../modules/common/validator.ts';

const ajv = makeValidator(false);
const compiled = new WeakMap<TSchema, ReturnType<typeof ajv.compile>>();

export function checked<T extends TSchema>(schema: T, value: unknown, what = 'field'): Static<T> {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(value)) {
    const error = validate.errors?.[0];
    const name =
      error?.instancePath.slice(1).replace(/\//g, '.') ||
      (error?.params as { missingProperty?: string; additionalProperty?: string })?.missingProperty ||
      '';
    const extra = (error?.params as { additionalProperty?: string })?.additionalProperty;
    if (extra) throw invalid(`unknown ${what} '${extra}'`);
    throw invalid(
      name
        ? `${what} '${name}' ${error?.message ?? 'is not valid'}`
        : (error?.message ?? 'the arguments are not valid'),
    );
  }
  return value as Static<T>;
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
