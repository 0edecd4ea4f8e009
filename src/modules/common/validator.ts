// The JSON Schema validator the ways in check inputs with (REST bodies and parameters, page
// forms), configured once: the formats of ajv-formats, and a UUID format that takes a UUID exactly
// (ajv-formats' own also takes a `urn:uuid:` prefix, which names no record here).
import { Ajv } from 'ajv';
import { createRequire } from 'node:module';

// ajv-formats ships CommonJS whose default export ESM type-checking sees one level down.
const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `coerceTypes`: for text inputs (query strings, path parameters); bodies are taken as sent. */
export function makeValidator(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  ajv.addFormat('uuid', UUID);
  return ajv;
}

/** An email address as every `format: 'email'` field of the API takes it. */
export const isEmailAddress = makeValidator(false).compile<string>({ type: 'string', format: 'email' });
