import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../helpers/app.ts';

const api = useTestApi();

// The 24 operations of the spec's section 4, plus the additions documented in docs/api/.
const SPEC_OPERATIONS = [
  'get /clients',
  'post /clients',
  'get /clients/{clientId}',
  'patch /clients/{clientId}',
  'get /projects',
  'post /projects',
  'get /projects/{projectId}',
  'patch /projects/{projectId}',
  'delete /projects/{projectId}',
  'get /templates',
  'post /templates',
  'get /templates/{templateId}',
  'patch /templates/{templateId}',
  'delete /templates/{templateId}',
  'get /plans',
  'post /plans',
  'get /plans/{planId}',
  'patch /plans/{planId}',
  'get /analytics',
  'get /webhooks',
  'post /webhooks',
  'get /webhooks/{webhookId}',
  'patch /webhooks/{webhookId}',
  'delete /webhooks/{webhookId}',
];

describe('GET /api/v1/docs', () => {
  it('serves a valid OpenAPI 3.1 document without a credential', async () => {
    const res = await api.get('/api/v1/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(res.body)).resolves.toBeTruthy();
    expect(res.body.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(res.body.paths['/healthz']).toBeUndefined();
    // The MCP endpoint speaks JSON-RPC with its own errors: not part of the REST document. The
    // embed session API is, under its own tag.
    expect(Object.keys(res.body.paths).filter((path) => !path.startsWith('/api/v1/'))).toEqual([
      '/api/embed/session',
      '/api/embed/session/{sessionId}',
    ]);
    expect(res.body.paths['/api/embed/session'].post.tags).toEqual(['embed']);
  });

  it('documents every operation of the spec with its errors', async () => {
    const doc = (await api.get('/api/v1/docs')).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(
      ([path, item]) => Object.keys(item).map((method) => `${method} ${path.replace(/^\/api\/v1/, '')}`),
    );
    for (const op of SPEC_OPERATIONS) expect(operations).toContain(op);
    // Site content: files, export, template files, AI generation.
    for (const op of [
      'get /projects/{projectId}/files',
      'get /projects/{projectId}/files/{path}',
      'put /projects/{projectId}/files/{path}',
      'delete /projects/{projectId}/files/{path}',
      'get /projects/{projectId}/export',
      'get /templates/{templateId}/files',
      'post /projects/{projectId}/generate',
      'get /projects/{projectId}/generations',
      'get /projects/{projectId}/generations/{generationId}',
      // Publishing and custom domains.
      'post /projects/{projectId}/publish',
      'post /projects/{projectId}/unpublish',
      'get /projects/{projectId}/preview',
      'get /projects/{projectId}/domains',
      'post /projects/{projectId}/domains',
      'post /projects/{projectId}/domains/{domainId}/verify',
      'delete /projects/{projectId}/domains/{domainId}',
    ])
      expect(operations).toContain(op);
    expect(operations.some((op) => op.includes('/internal/'))).toBe(false);
    for (const op of SPEC_OPERATIONS) {
      const [method, path] = op.split(' ') as [string, string];
      const operation = doc.paths[`/api/v1${path}`]?.[method];
      if (!operation) continue;
      expect(Object.keys(operation.responses), op).toEqual(expect.arrayContaining(['401', '429', '500']));
      if (method !== 'get') expect(Object.keys(operation.responses), op).toContain('400');
      if (path.includes('{')) expect(Object.keys(operation.responses), op).toContain('404');
      expect(operation.responses['401'].content['application/json'].schema.properties.error.type).toBe(
        'string',
      );
    }
  });
});
