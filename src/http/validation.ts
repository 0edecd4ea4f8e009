// Request validation with two Ajv instances: bodies are taken exactly as sent (no type coercion,
// no silent removal of unknown fields), while query strings and path parameters, which are
// always text, are coerced to the declared types.
import { Ajv, type ErrorObject } from 'ajv';
import { createRequire } from 'node:module';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

// ajv-formats ships CommonJS whose default export ESM type-checking sees one level down.
const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const paramAjv = makeAjv(true);

export function validatorCompiler({ schema, httpPart }: { schema: object; httpPart?: string }) {
  return (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema);
}

const PART_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/** Turns a JSON-pointer path like /events/0 into events[0]. */
function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}

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
