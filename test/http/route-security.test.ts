// Every operation of the served OpenAPI document, one by one: no key, a bad key and a revoked key
// are 401; a key without the permission the method needs is 403; another organization's records
// are 404. New routes are covered as soon as they are registered.
import { beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/lib/keys.ts';
import { useTestApi } from '../helpers/app.ts';
import { createClient, createPlan, createProject, createTemplate } from '../helpers/fixtures.ts';

const api = useTestApi();

interface Operation {
  method: string;
  path: string;
}

function operations(): Operation[] {
  const doc = api.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/v1/') && path !== '/api/v1/docs')
    .flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((method) => ({ method: method.toUpperCase(), path })),
    );
}

/** Records of the test's organization, to put into paths. */
let ids: Record<string, string>;
beforeEach(async () => {
  const client = await createClient(api);
  const project = await createProject(api, { client_email: client.email, name: 'Secured' });
  const template = await createTemplate(api);
  const plan = await createPlan(api, 5);
  const webhook = (
    await api.post('/api/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['client.created'] })
  ).body.webhook;
  ids = { client: client.id, project: project.id, template: template.id, plan: plan.id, webhook: webhook.id };
});

/** Fills a path's parameters with records of the test's organization (other ids: a fresh UUID). */
function fill(path: string): string {
  const resource = path.split('/')[3]!; // /api/v1/{resource}/...
  const owner: Record<string, string> = {
    clients: 'client',
    projects: 'project',
    templates: 'template',
    plans: 'plan',
    webhooks: 'webhook',
  };
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'id') return ids[owner[resource]!]!;
    if (name === 'projectId') return ids.project!;
    if (name === 'webhookId') return ids.webhook!;
    if (name === 'templateId') return ids.template!;
    if (name === 'path') return 'index.html';
    return crypto.randomUUID();
  });
}

const isWrite = (method: string) => method !== 'GET';

/** Bodies that pass validation, so that the lookup (not the body check, which comes first) answers. */
const VALID_BODIES: Record<string, unknown> = {
  'POST /api/v1/projects/{projectId}/generate': { prompt: 'A bakery' },
  'PUT /api/v1/projects/{projectId}/files/{path}': { content: '<h1>Hi</h1>' },
  'POST /api/v1/projects/{projectId}/domains': { domain: 'www.example.com' },
};

describe('every operation', () => {
  it('is listed (a sanity check on the table below)', () => {
    expect(operations().length).toBeGreaterThan(40);
  });

  it('refuses a missing, malformed, unknown or revoked key with 401', async () => {
    const revoked = await api.ctx.services.orgs.createKey(api.org.id, ['read', 'write'], 'soon revoked');
    await api.ctx.services.orgs.revokeKey(revoked.id);
    for (const op of operations()) {
      for (const key of [null, 'wk_nonsense', generateApiKey(), revoked.key]) {
        const res = await api.request(op.method, fill(op.path), isWrite(op.method) ? {} : undefined, { key });
        expect(res.status, `${op.method} ${op.path} with key ${String(key).slice(0, 12)}`).toBe(401);
      }
    }
  });

  it('refuses a key without the permission the method needs with 403', async () => {
    for (const op of operations()) {
      const key = isWrite(op.method) ? api.readKey : api.writeKey;
      const res = await api.request(op.method, fill(op.path), isWrite(op.method) ? {} : undefined, { key });
      expect(res.status, `${op.method} ${op.path}`).toBe(403);
      expect(res.body).toEqual({ error: expect.stringContaining(isWrite(op.method) ? 'write' : 'read') });
    }
  });

  it("answers 404 for another organization's records, and changes nothing", async () => {
    const mine = ids;
    const other = await api.newOrg('Other');
    for (const op of operations().filter((o) => o.path.includes('{'))) {
      const body = VALID_BODIES[`${op.method} ${op.path}`] ?? (isWrite(op.method) ? {} : undefined);
      const res = await api.request(op.method, fill(op.path), body, { key: other.key });
      expect(res.status, `${op.method} ${op.path}: ${JSON.stringify(res.body)}`).toBe(404);
    }
    for (const [name, path] of [
      ['client', 'clients'],
      ['project', 'projects'],
      ['template', 'templates'],
      ['plan', 'plans'],
      ['webhook', 'webhooks'],
    ]) {
      expect((await api.get(`/api/v1/${path}/${mine[name!]}`)).status, name).toBe(200);
    }
  });
});
