// Request validation with two Ajv instances: bodies are taken exactly as sent (no type coercion,
// no silent removal of unknown fields), while query strings and path parameters, which are
// always text, are coerced to the declared types.
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { makeValidator } from '../modules/common/validator.ts';
import { findNul } from '../web/nul-check.ts';
import { validationMessage, type Noun } from '../web/validation-message.ts';

const bodyAjv = makeValidator(false);
const paramAjv = makeValidator(true);

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

export function validatorCompiler({ schema, httpPart }: { schema: object; httpPart?: string }): Validate {
  // Raw bytes (a file or an archive sent as they are) have no structure to check, NULs included.
  if ((schema as { format?: string }).format === 'binary') return () => true;
  const validate = (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema);
  // UUIDs are case-insensitive (RFC 9562) and stored in lower case: an id sent in upper case is
  // lowered once valid, so that it finds its record.
  const uuidFields = Object.entries(
    (schema as { properties?: Record<string, { format?: string }> }).properties ?? {},
  )
    .filter(([, property]) => property.format === 'uuid')
    .map(([name]) => name);
  const checkNul = httpPart !== 'headers';
  const checked: Validate = (data) => {
    const valid = validate(data);
    checked.errors = validate.errors as FastifySchemaValidationError[] | null | undefined;
    if (!valid) return false;
    const nulAt = checkNul ? findNul(data, schema) : undefined;
    if (nulAt !== undefined) {
      checked.errors = [
        {
          keyword: 'nul',
          instancePath: nulAt,
          schemaPath: '',
          params: {},
          message: 'must not contain a NUL character',
        },
      ];
      return false;
    }
    if (uuidFields.length > 0 && data && typeof data === 'object') {
      const fields = data as Record<string, unknown>;
      for (const name of uuidFields)
        if (typeof fields[name] === 'string') fields[name] = fields[name].toLowerCase();
    }
    return true;
  };
  return checked;
}

/** What each part of a request holds, in the one wording of web/validation-message.ts. */
const NOUNS: Record<string, Noun> = {
  body: 'field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

export function schemaErrorFormatter(errors: FastifySchemaValidationError[], part: string): Error {
  const first = errors[0];
  const noun = NOUNS[part] ?? 'field';
  const message = first ? validationMessage(first, noun, part === 'body' ? 'body' : noun) : `invalid ${part}`;
  return Object.assign(new Error(message), { statusCode: 400, validationError: true });
}
