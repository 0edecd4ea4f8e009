// Request validation with two Ajv instances: bodies are taken exactly as sent (no type coercion,
// no silent removal of unknown fields), while query strings and path parameters, which are
// always text, are coerced to the declared types.
import type { ErrorObject } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { makeValidator } from '../modules/common/validator.ts';
import { fieldName, findNul } from '../web/nul-check.ts';

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

const PART_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

function describe(error: ErrorObject | FastifySchemaValidationError, part: string): string {
  const where = PART_NAMES[part] ?? part;
  const params = error.params as Record<string, unknown>;
  const field = fieldName(error.instancePath);
  const inField = field ? `${field}.` : '';
  switch (error.keyword) {
    case 'required':
      return `${where === 'body' ? 'field' : where} '${inField}${String(params.missingProperty)}' is required`;
    case 'additionalProperties':
      return `unknown ${where === 'body' ? 'field' : where} '${inField}${String(params.additionalProperty)}'`;
    case 'enum':
      return `${where === 'body' ? 'field' : where} '${field}' must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'format':
      return `${where === 'body' ? 'field' : where} '${field}' must be a valid ${String(params.format)}`;
    default:
      if (!field) return `${where} ${error.message ?? 'is invalid'}`;
      return `${where === 'body' ? 'field' : where} '${field}' ${error.message ?? 'is invalid'}`;
  }
}

export function schemaErrorFormatter(errors: FastifySchemaValidationError[], part: string): Error {
  const first = errors[0];
  const message = first ? describe(first, part) : `invalid ${part}`;
  return Object.assign(new Error(message), { statusCode: 400, validationError: true });
}
