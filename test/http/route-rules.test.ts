// Every /api/v1 route (and the embed session API's) states its rules in its own file (src/http/route-rules.ts): a query schema
// (NoQuery when it takes none), the paging check on a list, the body refusal on a write without a
// body schema. Nothing rewrites a route behind its file's back, so this test is what keeps a new
// route from forgetting one.
import Fastify, { type RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { RateLimiter } from '../../src/lib/rate-limiter.ts';
import { refuseUnexpectedBody } from '../../src/http/api-guard.ts';
import { buildApp } from '../../src/http/app.ts';
import { checkPaging } from '../../src/http/paging.ts';
import { apiRoutes } from '../../src/http/routes/index.ts';
import { embedSessionRoutes } from '../../src/http/routes/embed-sessions.ts';
import type { Services } from '../../src/modules/index.ts';

// Only the route definitions are looked at: no service is called, no database opened.
const services = new Proxy({}, { get: () => ({}) }) as Services;
const config = loadConfig({ DATA_DIR: '/nonexistent' });

async function registeredRoutes(): Promise<RouteOptions[]> {
  const routes: RouteOptions[] = [];
  const app = Fastify();
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onRoute', (route) => void routes.push(route));
  for (const plugin of apiRoutes) await app.register(plugin({ services, config }), { prefix: '/api/v1' });
  await app.register(embedSessionRoutes({ services, config }), { prefix: '/api/embed' });
  await app.ready();
  await app.close();
  return routes.filter((route) => route.method !== 'HEAD');
}

const preValidation = (route: RouteOptions) => [route.preValidation ?? []].flat();
const queryNames = (route: RouteOptions) =>
  Object.keys((route.schema?.querystring as { properties?: object } | undefined)?.properties ?? {});
const name = (route: RouteOptions) => `${String(route.method)} ${route.url}`;
/** `GET /api/v1/projects/{projectId}`, as the OpenAPI document writes it (`/files/*`: `{path}`). */
const operation = (route: RouteOptions) =>
  `${String(route.method)} ${route.url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}')}`;

describe('the rules every /api/v1 route states', () => {
  it('has a query schema on every route, refusing unknown parameters', async () => {
    const routes = await registeredRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(55);
    const without = routes.filter(
      (route) =>
        !route.schema?.querystring ||
        (route.schema.querystring as { additionalProperties?: boolean }).additionalProperties !== false,
    );
    expect(without.map(name)).toEqual([]);
  });

  it('checks limit and offset as written on every list', async () => {
    const lists = (await registeredRoutes()).filter((route) =>
      queryNames(route).some((param) => param === 'limit' || param === 'offset'),
    );
    expect(lists.length).toBeGreaterThanOrEqual(10);
    expect(lists.filter((route) => !preValidation(route).includes(checkPaging)).map(name)).toEqual([]);
  });

  it('refuses a body on every write that has no body schema', async () => {
    const bodiless = (await registeredRoutes()).filter(
      (route) => (route.method === 'DELETE' || route.config?.allowEmptyBody === true) && !route.schema?.body,
    );
    expect(bodiless.length).toBeGreaterThanOrEqual(10);
    const missing = bodiless.filter((route) => !preValidation(route).includes(refuseUnexpectedBody));
    expect(missing.map(name)).toEqual([]);
  });

  it('walks every /api/v1 operation of the app (the docs route aside: public, and takes any query)', async () => {
    const walked = new Set((await registeredRoutes()).map(operation));
    const rateLimiter = { quota: 1, windowSeconds: 1 } as RateLimiter;
    const readiness = async () => ({
      ready: true,
      checks: { database: 'ok', migrations: 'ok', redis: 'not used' },
    });
    const app = await buildApp({ config, services, rateLimiter, readiness });
    const paths = app.swagger().paths as Record<string, Record<string, unknown>>;
    await app.close();
    const documented = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.filter((op) => !walked.has(op))).toEqual(['GET /api/v1/docs']);
    expect(documented.length).toBe(walked.size + 1);
  });
});
