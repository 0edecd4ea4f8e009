// The OpenAPI 3.1 document is generated from the route schemas, so it cannot drift from the code.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { API_PREFIX, EMBED_API_PREFIX } from './api-guard.ts';
import { ErrorBody } from './schemas.ts';

const DESCRIPTION = `Manage an agency's clients, their website projects, templates, client plans, traffic
analytics and signed webhooks.

- Authentication: \`Authorization: Bearer wk_...\` (an organization API key). \`GET\` needs the
  \`read\` permission; \`POST\`, \`PATCH\`, \`PUT\` and \`DELETE\` need \`write\`.
- Every failure is \`{"error": "<message>"}\`. Checks run in the order 401, 429, 403, 415, 400, 404.
- Unknown body fields are refused with 400 naming the field.
- Lists are ordered newest first (\`created_at DESC, id DESC\`), except plans
  (\`sort_order ASC, created_at ASC\`).
- DELETE answers \`200 {"deleted": true, "id": "..."}\`.
- Rate limit: a fixed window per credential (per client IP without a valid one); every response
  carries \`RateLimit-Policy\`, \`RateLimit\`, \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
  \`X-RateLimit-Reset\`; a 429 adds \`Retry-After\`.
- Embed sessions (tag \`embed\`, under \`/api/embed\`): an API key with the \`embed\` permission opens
  and revokes them, and can call nothing else; a headless session's \`embt_\` token is a bearer on the
  \`/api/v1/projects\` routes of its client's projects only (403 elsewhere).`;

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Site-Builder Management REST API', version: '1.0.0', description: DESCRIPTION },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description:
              'Organization API key (prefix wk_); a headless embed session token (prefix embt_) on the /api/v1/projects routes',
          },
        },
      },
      security: [{ apiKey: [] }],
    },
    // Fastify's wildcard (`/files/*`) is documented as a `{path}` parameter that may contain `/`.
    transform: ({ schema, url }) => {
      // Pages (dashboard, portal), OAuth and the MCP endpoint (JSON-RPC, with its own errors) share
      // the app but are not part of the REST API.
      const documented = url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${EMBED_API_PREFIX}/`);
      if (!documented) return { schema: { ...schema, hide: true }, url };
      if (!url.endsWith('/*')) return { schema, url };
      const params = schema?.params as
        { properties?: Record<string, unknown>; required?: string[] } | undefined;
      const properties = { ...params?.properties };
      if (properties['*']) {
        properties.path = properties['*'];
        delete properties['*'];
      }
      const required = (params?.required ?? []).map((r) => (r === '*' ? 'path' : r));
      return {
        schema: { ...schema, params: { ...params, properties, required } },
        url: url.slice(0, -1) + '{path}',
      };
    },
  });
}

/** GET /api/v1/docs: the document itself, readable without a credential. */
export function registerDocsRoute(app: FastifyInstance): void {
  app.get(
    `${API_PREFIX}/docs`,
    {
      config: { public: true },
      schema: {
        tags: ['meta'],
        summary: 'This OpenAPI 3.1 document',
        security: [],
        response: { 200: { type: 'object', additionalProperties: true }, 429: ErrorBody },
      },
    },
    async () => app.swagger(),
  );
}
