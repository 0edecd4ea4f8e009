// NUL characters are refused in every text input (body, query string, path parameters, MCP tool
// arguments), on both engines: PostgreSQL text cannot hold one (a 500 there), SQLite would store
// it. Strings whose schema says NUL_ALLOWED (file content, which is bytes) are the exception. The
// REST API runs it after schema validation (http/validation.ts), so the data has the schema's
// shape; the MCP server before a tool runs (mcp/server.ts); the pages on each form field and query
// parameter (ui/forms.ts, ui/query.ts).
import { NUL_ALLOWED } from '../modules/common/schema.ts';

type Schema = {
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  [NUL_ALLOWED]?: boolean;
};

/** Whether a text holds a NUL character (a form field, a query parameter). */
export function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

/** The JSON pointer (`/tags/2`) of the first string or key holding a NUL, or undefined. */
export function findNul(data: unknown, schema: Schema | undefined, path = ''): string | undefined {
  if (
    schema?.[NUL_ALLOWED] ||
    schema?.anyOf?.some((s) => s[NUL_ALLOWED]) ||
    schema?.oneOf?.some((s) => s[NUL_ALLOWED])
  )
    return undefined;
  if (typeof data === 'string') return hasNul(data) ? path : undefined;
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const found = findNul(data[i], schema?.items, `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (data && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) {
      const name = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (hasNul(key)) return name;
      const found = findNul(value, childSchema(schema, key), name);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function childSchema(schema: Schema | undefined, key: string): Schema | undefined {
  if (!schema) return undefined;
  const direct = schema.properties?.[key];
  if (direct) return direct;
  const pattern = schema.patternProperties && Object.values(schema.patternProperties)[0];
  if (pattern) return pattern;
  if (typeof schema.additionalProperties === 'object') return schema.additionalProperties;
  const branch = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((s) => s.properties?.[key]);
  return branch?.properties?.[key];
}

/** A JSON pointer (`/events/0/name`) as the messages name a field (`events[0].name`). */
export function fieldName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}
