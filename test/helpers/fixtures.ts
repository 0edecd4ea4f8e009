// Records the projects and templates tests start from, created through the API like a user would.
import { expect } from 'vitest';
import type { TestApi } from './app.ts';

let seq = 0;

export async function createClient(
  api: TestApi,
  fields: { email?: string; plan_id?: string } = {},
  key?: string,
): Promise<any> {
  const res = await api.post(
    '/api/v1/clients',
    { email: `client${++seq}@example.com`, ...fields },
    key ? { key } : {},
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.client;
}

export async function createProject(api: TestApi, body: Record<string, unknown>, key?: string): Promise<any> {
  const res = await api.post('/api/v1/projects', body, key ? { key } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.project;
}

export async function createPlan(api: TestApi, maxSites: number): Promise<any> {
  const res = await api.post('/api/v1/plans', { name: `Plan ${++seq}`, price: 10, max_sites: maxSites });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.plan;
}

export async function createTemplate(
  api: TestApi,
  body: Record<string, unknown> = {},
  key?: string,
): Promise<any> {
  const res = await api.post('/api/v1/templates', { name: `Template ${++seq}`, ...body }, key ? { key } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.template;
}

/** Timestamps have millisecond resolution: let the clock move before a write that should move one. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

export const PROJECT_FIELDS = [
  'id',
  'user_id',
  'org_id',
  'org_client_id',
  'name',
  'description',
  'status',
  'template',
  'tags',
  'starred',
  'is_public',
  'subdomain',
  'custom_domain',
  'custom_domain_status',
  'published_url',
  'last_published_at',
  'preview_image_url',
  'created_at',
  'updated_at',
  'last_opened_at',
].sort();

export const TEMPLATE_FIELDS = [
  'id',
  'org_id',
  'name',
  'description',
  'category',
  'thumbnail_url',
  'is_public',
  'is_featured',
  'created_at',
].sort();

export const OTHER_UUID = '00000000-0000-4000-8000-000000000000';
