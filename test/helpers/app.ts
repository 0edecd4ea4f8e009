// The test harness: one app and database per test file, a fresh organization with keys per
// test, and every response checked against the served OpenAPI document.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { buildServer } from '../../src/main.ts';
import type { Organization } from '../../src/modules/orgs/service.ts';
import { createDispatcher, type Dispatcher } from '../../src/events/dispatcher.ts';
import { GenerationWorker } from '../../src/modules/generations/worker.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { OpenApiChecker } from './openapi-check.ts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** The bearer key; null sends no Authorization header. Defaults to the test's read+write key. */
  key?: string | null;
  headers?: Record<string, string>;
  /** A raw payload instead of JSON. */
  payload?: string;
}

let counter = 0;

export function testConfig(db: TestDatabase, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: db.dataDir,
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    RATE_LIMIT_QUOTA: '10000',
    LOG_LEVEL: 'silent',
    SQLITE_SYNCHRONOUS: 'NORMAL',
    PUBLIC_URL: 'http://sitewright.test',
    ...env,
  });
}

export class TestApi {
  org!: Organization;
  /** read + write */
  key!: string;
  readKey!: string;
  writeKey!: string;
  /** Set when the harness runs a webhook dispatcher (useTestApi(env, { dispatcher: true })). */
  dispatcher: Dispatcher | undefined;
  /** Set when the harness runs a generation worker (useTestApi(env, { generationWorker: true })). */
  generationWorker: GenerationWorker | undefined;

  constructor(
    readonly app: FastifyInstance,
    readonly ctx: Container,
    private readonly checker: OpenApiChecker,
  ) {}

  async newOrg(
    name = 'Agency',
  ): Promise<{ org: Organization; key: string; readKey: string; writeKey: string }> {
    const org = await this.ctx.services.orgs.createOrg(`${name} ${process.pid}-${++counter}`);
    const key = (await this.ctx.services.orgs.createKey(org.id, ['read', 'write'], 'rw')).key;
    const readKey = (await this.ctx.services.orgs.createKey(org.id, ['read'], 'ro')).key;
    const writeKey = (await this.ctx.services.orgs.createKey(org.id, ['write'], 'wo')).key;
    return { org, key, readKey, writeKey };
  }

  async request<T = any>(
    method: string,
    url: string,
    body?: unknown,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const key = opts.key === undefined ? this.key : opts.key;
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}) };
    let payload: string | undefined = opts.payload;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, opts.headers);
    const res = await this.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const problem = this.checker.check(
      method,
      url,
      res.statusCode,
      res.headers['content-type'] as string | undefined,
      res.body,
    );
    expect(problem, `OpenAPI conformance of ${method} ${url}`).toBeNull();
    const isJson = String(res.headers['content-type'] ?? '').startsWith('application/json');
    return {
      status: res.statusCode,
      headers: res.headers,
      body: isJson && res.body ? JSON.parse(res.body) : res.body,
      text: res.body,
    };
  }

  get<T = any>(url: string, opts?: RequestOptions) {
    return this.request<T>('GET', url, undefined, opts);
  }
  post<T = any>(url: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', url, body, opts);
  }
  patch<T = any>(url: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', url, body, opts);
  }
  delete<T = any>(url: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', url, undefined, opts);
  }
  put<T = any>(url: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', url, body, opts);
  }
}

export interface HarnessOptions {
  /** Run a webhook dispatcher beside the app, as `sitewright start` does. */
  dispatcher?: boolean;
  /** Run a generation worker beside the app, as `sitewright start` does. */
  generationWorker?: boolean;
}

/**
 * Registers the per-file set-up and returns the harness. Each test starts with a fresh
 * organization and keys on `api.org`, `api.key`, `api.readKey`, `api.writeKey`.
 */
export function useTestApi(env: Record<string, string> = {}, opts: HarnessOptions = {}): TestApi {
  const holder = {} as { api: TestApi; runtime: Container; db: TestDatabase };
  beforeAll(async () => {
    holder.db = await createTestDatabase();
    holder.runtime = await createContainer(testConfig(holder.db, env), {
      rateLimitKeyPrefix: `sw:test:${process.pid}:${++counter}`,
    });
    // The server as `sitewright start` builds it: the site edge in front of the API.
    const app = await buildServer(holder.runtime);
    holder.api = new TestApi(app, holder.runtime, await OpenApiChecker.create(app.swagger()));
    if (opts.dispatcher) {
      holder.api.dispatcher = createDispatcher(holder.runtime.database, holder.runtime.config);
      holder.api.dispatcher.start();
    }
    if (opts.generationWorker) {
      const { database, services, config } = holder.runtime;
      holder.api.generationWorker = new GenerationWorker(database, services.aiModels, config);
      holder.api.generationWorker.start();
    }
  });
  afterAll(async () => {
    await holder.api?.dispatcher?.stop(1_000);
    await holder.api?.generationWorker?.stop(1_000);
    await holder.api?.app.close();
    await holder.runtime?.close();
    await holder.db?.drop();
  });
  beforeEach(async () => {
    Object.assign(holder.api, await holder.api.newOrg());
  });
  // The harness object exists only after beforeAll; hand out a proxy that forwards to it.
  return new Proxy({} as TestApi, {
    get: (_t, prop) => {
      const value = (holder.api as unknown as Record<string | symbol, unknown>)[prop];
      return typeof value === 'function' ? value.bind(holder.api) : value;
    },
  });
}

/**
 * Serves the harness's app on a loopback port for the file's tests, for clients that need real
 * HTTP (an SDK, a browser, another process). `url` is set once the port is open.
 */
export function useLoopback(api: TestApi): { url: string } {
  const server = { url: '' };
  beforeAll(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    server.url = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await api.app.close();
  });
  return server;
}
