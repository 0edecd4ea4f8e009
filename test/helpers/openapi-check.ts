// Checks every response the suite sees against the OpenAPI document the app serves: the
// documented status must exist for that operation and the body must match its schema.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv, type ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { OpenAPIV3_1 } from 'openapi-types';

const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv;

export class OpenApiChecker {
  private readonly ajv: Ajv;
  private readonly routes: { pattern: RegExp; item: OpenAPIV3_1.PathItemObject }[];
  private readonly cache = new Map<object, ValidateFunction>();

  private constructor(doc: OpenAPIV3_1.Document) {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.routes = Object.entries(doc.paths ?? {}).map(([path, item]) => ({
      // A trailing {path} (a file path) may span several segments; other parameters are one segment.
      pattern: new RegExp('^' + path.replace(/\{path\}$/, '.+').replace(/\{[^}]+\}/g, '[^/]+') + '$'),
      item: item as OpenAPIV3_1.PathItemObject,
    }));
  }

  /** Validates the document (throws on an invalid one) and prepares the checker. */
  static async create(doc: unknown): Promise<OpenApiChecker> {
    await SwaggerParser.validate(structuredClone(doc) as OpenAPIV3_1.Document);
    const deref = (await SwaggerParser.dereference(
      structuredClone(doc) as OpenAPIV3_1.Document,
    )) as OpenAPIV3_1.Document;
    return new OpenApiChecker(deref);
  }

  /** Returns a description of what is wrong, or null when the response matches the document. */
  check(
    method: string,
    url: string,
    status: number,
    contentType: string | undefined,
    body: string,
  ): string | null {
    const path = url.split('?')[0]!;
    const route = this.routes.find((r) => r.pattern.test(path));
    const operation = route?.item[method.toLowerCase() as OpenAPIV3_1.HttpMethods];
    if (!operation) {
      // Unknown routes and methods answer the generic error body.
      return status >= 400 ? this.checkErrorShape(body) : `no documented ${method} ${path}`;
    }
    const response = operation.responses?.[String(status)] as OpenAPIV3_1.ResponseObject | undefined;
    if (!response) return `${method} ${path} answered ${status}, which is not documented`;
    const mediaType = contentType?.split(';')[0]!.trim();
    if (mediaType && mediaType !== 'application/json' && response.content?.[mediaType]) return null;
    const schema = response.content?.['application/json']?.schema;
    if (!schema)
      return body === '' ? null : `${method} ${path} ${status} has a body but no documented schema`;
    if (!contentType?.startsWith('application/json'))
      return `${method} ${path} ${status}: content-type ${contentType}`;
    let validate = this.cache.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.cache.set(schema, validate);
    }
    if (validate(JSON.parse(body))) return null;
    return `${method} ${path} ${status} body does not match the document: ${this.ajv.errorsText(validate.errors)}`;
  }

  private checkErrorShape(body: string): string | null {
    const parsed = JSON.parse(body) as unknown;
    const ok =
      typeof parsed === 'object' &&
      parsed !== null &&
      Object.keys(parsed).join() === 'error' &&
      typeof (parsed as { error: unknown }).error === 'string';
    return ok ? null : `error body is not {"error": string}: ${body}`;
  }
}
