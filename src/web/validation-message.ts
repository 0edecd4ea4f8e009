// One wording for a value a schema refuses, on every way in: the REST API's 400s, an MCP tool's
// refused arguments and a page's refused form all say "field 'email' must be a valid email",
// "unknown field 'x'", "field 'interval' must be one of: monthly, yearly" (with `argument` or
// `query parameter` where that is what was sent). Values are checked with the modules' own
// TypeBox schemas (modules/common/validator.ts); checkedAgainst is that check outside Fastify.
import type { ErrorObject } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { invalid } from '../modules/common/errors.ts';
import { makeValidator } from '../modules/common/validator.ts';
import { fieldName } from './nul-check.ts';

/** What was sent: a body's field, a tool's argument, a query or path parameter, a header. */
export type Noun = 'field' | 'argument' | 'query parameter' | 'path parameter' | 'header';

/**
 * The message of a schema's first complaint. `whole` names the value itself when the complaint
 * is about it rather than a member (`body must be object`); `label` shows a member's name.
 */
export function validationMessage(
  error: Pick<ErrorObject, 'keyword' | 'instancePath' | 'params' | 'message'>,
  noun: Noun,
  whole: string = noun,
  label: (name: string) => string = (name) => name,
): string {
  const params = error.params as Record<string, unknown>;
  const field = fieldName(error.instancePath);
  const inField = field ? `${field}.` : '';
  const named = (name: string) => `${noun} '${label(name)}'`;
  switch (error.keyword) {
    case 'required':
      return `${named(`${inField}${String(params.missingProperty)}`)} is required`;
    case 'additionalProperties':
      return `unknown ${named(`${inField}${String(params.additionalProperty)}`)}`;
    case 'enum':
      return `${named(field)} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'format':
      return `${named(field)} must be a valid ${String(params.format)}`;
    case 'type': {
      // Ajv says "must be string,null" for a nullable field.
      const type = String(params.type).split(',').join(' or ');
      return field ? `${named(field)} must be ${type}` : `${whole} must be ${type}`;
    }
    default:
      if (!field) return `${whole} ${error.message ?? 'is invalid'}`;
      return `${named(field)} ${error.message ?? 'is invalid'}`;
  }
}

const ajv = makeValidator(false);
const compiled = new WeakMap<TSchema, ReturnType<typeof ajv.compile>>();

/** `value` if `schema` takes it (as sent: no coercion), else an InvalidInputError worded as above. */
export function checkedAgainst<T extends TSchema>(
  schema: T,
  value: unknown,
  noun: Noun,
  words: { whole: string; label?: (name: string) => string },
): Static<T> {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return value as Static<T>;
  const [error] = validate.errors ?? [];
  throw invalid(
    error ? validationMessage(error, noun, words.whole, words.label) : `${words.whole} is invalid`,
  );
}
