// The served OpenAPI document as a readable page: operations grouped by tag, each with its
// parameters, request body fields and responses. Built from the document itself (never a second
// description of the API), so the page can no more drift from the code than the JSON can.
import { escapeHtml } from '../lib/html.ts';

// The document is plain JSON walked by its shape; every value read from it is converted (String, arrays checked).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;

export interface Field {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export interface ResponseView {
  status: string;
  description: string;
  fields: Field[];
}

export interface OperationView {
  id: string;
  method: string;
  path: string;
  summary: string;
  /** Our own HTML: the escaped description with `code` and "- " lists rendered. */
  descriptionHtml: string;
  parameters: (Field & { in: string })[];
  body: Field[] | null;
  responses: ResponseView[];
}

export interface ApiReference {
  title: string;
  version: string;
  descriptionHtml: string;
  groups: { tag: string; operations: OperationView[] }[];
  paths: string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function apiReference(document: unknown): ApiReference {
  const doc = (document ?? {}) as Schema;
  const resolve = (schema: Schema | undefined): Schema => {
    if (!schema || typeof schema.$ref !== 'string') return schema ?? {};
    const name = schema.$ref.replace('#/components/schemas/', '');
    return (doc.components?.schemas?.[name] as Schema | undefined) ?? {};
  };
  const groups = new Map<string, OperationView[]>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Schema>)) {
    for (const method of METHODS) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      const tag = (op.tags as string[] | undefined)?.[0] ?? 'general';
      const bodySchema = resolve(op.requestBody?.content?.['application/json']?.schema);
      const view: OperationView = {
        id: `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-').replace(/-+$/, ''),
        method: method.toUpperCase(),
        path,
        summary: String(op.summary ?? ''),
        descriptionHtml: prose(String(op.description ?? '')),
        parameters: ((op.parameters ?? []) as Schema[]).map((p) => ({
          in: String(p.in),
          name: String(p.name),
          type: typeLabel(resolve(p.schema), resolve),
          required: p.required === true,
          description: String(p.description ?? p.schema?.description ?? ''),
        })),
        body: op.requestBody ? fieldsOf(bodySchema, resolve) : null,
        responses: Object.entries((op.responses ?? {}) as Record<string, Schema>).map(
          ([status, response]) => {
            const schema = resolve(response.content?.['application/json']?.schema);
            const isError = Object.keys(schema.properties ?? {}).join() === 'error';
            return {
              status,
              description:
                response.description === 'Default Response' ? '' : String(response.description ?? ''),
              fields: isError ? [] : fieldsOf(schema, resolve),
            };
          },
        ),
      };
      groups.set(tag, [...(groups.get(tag) ?? []), view]);
    }
  }
  return {
    title: String(doc.info?.title ?? 'API'),
    version: String(doc.info?.version ?? ''),
    descriptionHtml: prose(String(doc.info?.description ?? '')),
    groups: [...groups].map(([tag, operations]) => ({ tag, operations })),
    paths: Object.keys(doc.paths ?? {}),
  };
}

/**
 * The fields of an object schema; the fields of a nested object (or of an array's objects) follow
 * their parent with dotted names (`client.email`, `projects[].name`), two levels deep.
 */
function fieldsOf(
  schema: Schema,
  resolve: (s: Schema | undefined) => Schema,
  prefix = '',
  depth = 0,
): Field[] {
  if (schema.type === 'array' && !prefix) {
    return [
      {
        name: '(array)',
        type: typeLabel(schema, resolve),
        required: true,
        description: String(schema.description ?? ''),
      },
      ...nested('[]', resolve(schema.items), resolve, depth),
    ];
  }
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries((schema.properties ?? {}) as Record<string, Schema>).flatMap(([name, raw]) => {
    const property = resolve(raw);
    const field = {
      name: prefix + name,
      type: typeLabel(property, resolve),
      required: required.has(name),
      description: String(property.description ?? ''),
    };
    const inner =
      property.type === 'array'
        ? nested(`${prefix}${name}[]`, resolve(property.items), resolve, depth)
        : nested(prefix + name, property, resolve, depth);
    return [field, ...inner];
  });
}

function nested(
  name: string,
  schema: Schema,
  resolve: (s: Schema | undefined) => Schema,
  depth: number,
): Field[] {
  if (depth >= 2 || !schema.properties) return [];
  return fieldsOf(schema, resolve, `${name}.`, depth + 1);
}

/** A short type: `string (uuid)`, `integer 1–100`, `one of a, b`, `Client`, `array of Client`, `… or null`. */
export function typeLabel(
  schema: Schema,
  resolve: (s: Schema | undefined) => Schema = (s) => s ?? {},
): string {
  const s = resolve(schema);
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    return ((s.anyOf ?? s.oneOf) as Schema[]).map((part) => typeLabel(part, resolve)).join(' or ');
  }
  const types = (Array.isArray(s.type) ? s.type : [s.type ?? (s.properties ? 'object' : 'any')]) as string[];
  const nullable = types.includes('null');
  const main = types.filter((t) => t !== 'null');
  let label: string;
  if (Array.isArray(s.enum))
    label = `one of ${(s.enum as unknown[])
      .filter((v) => v !== null)
      .map(String)
      .join(', ')}`;
  else if (main[0] === 'array') label = `array of ${typeLabel(s.items ?? {}, resolve)}`;
  else if (main[0] === 'object')
    label = s.title
      ? String(s.title)
      : s.properties
        ? `object {${Object.keys(s.properties).join(', ')}}`
        : 'object';
  else {
    label = main.join(' or ') || 'any';
    if (s.format) label += ` (${s.format})`;
    const text = main[0] === 'string';
    const min = (text ? s.minLength : s.minimum) as number | undefined;
    const limit = (text ? s.maxLength : s.maximum) as number | undefined;
    // The largest 32-bit integer is a storage bound, not a rule worth reading.
    const max = limit !== undefined && limit < 2_147_483_647 ? limit : undefined;
    const unit = text ? ' chars' : '';
    if (min !== undefined && max !== undefined) label += `, ${min}–${max}${unit}`;
    else if (max !== undefined) label += `, ≤ ${max}${unit}`;
    else if (min !== undefined && !(text && min <= 1)) label += `, ≥ ${min}${unit}`;
  }
  return nullable ? `${label} or null` : label;
}

/** Escaped text with `code` spans, "- " bullet lists and paragraphs: the only markup our descriptions use. */
export function prose(text: string): string {
  const blocks = text
    .trim()
    .split(/\n\s*\n/)
    .filter(Boolean);
  return blocks
    .map((block) => {
      const lines = block.split('\n');
      if (lines[0]!.trimStart().startsWith('- ')) {
        const items: string[] = [];
        for (const line of lines) {
          if (line.trimStart().startsWith('- ')) items.push(line.trimStart().slice(2));
          else if (items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
        }
        return `<ul>${items.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`;
      }
      return `<p>${inline(lines.map((l) => l.trim()).join(' '))}</p>`;
    })
    .join('');
}

function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}
