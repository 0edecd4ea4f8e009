// OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT set), from the real server to a local OTLP/HTTP
// receiver: requests named by their route and joined to an incoming `traceparent`, database
// queries inside them, MCP tool calls, webhook attempts and generation jobs. Unset: the process
// loads no OpenTelemetry module at all.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { BIN, cliEnv, runCli } from '../helpers/cli.ts';
import { freePort, ServerProcess } from '../helpers/server-process.ts';
import { OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.ts';
import { Receiver } from '../helpers/receiver.ts';
import { waitUntil } from '../helpers/wait.ts';

const WATCH = fileURLToPath(new URL('../helpers/otel-watch.mjs', import.meta.url));
let db: TestDatabase;
let env: NodeJS.ProcessEnv;
let key: string;
let otlp: OtlpReceiver;
let hooks: Receiver;
let server: ServerProcess;

beforeAll(async () => {
  db = await createTestDatabase();
  env = cliEnv(db);
  expect((await runCli(['migrate'], env)).code).toBe(0);
  await runCli(['org', 'create', '--name', 'Traced'], env);
  const created = await runCli(
    ['keys', 'create', '--org', 'Traced', '--permissions', 'read,write', '--json'],
    env,
  );
  key = JSON.parse(created.stdout).key;
  otlp = await OtlpReceiver.start();
  hooks = await Receiver.start();
  server = new ServerProcess(await freePort(), {
    ...(env as Record<string, string>),
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_SERVICE_NAME: 'sitewright-test',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
  });
  await server.start();
});
afterAll(async () => {
  await server?.kill('SIGTERM');
  await otlp?.close();
  await hooks?.close();
  await db?.drop();
});

/** pg's instrumentation names the engine in `db.system` or, by newer conventions, `db.system.name`. */
const dbSystem = (span: ReceivedSpan) => span.attributes['db.system'] ?? span.attributes['db.system.name'];

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.text()) as string };
};

describe('with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('traces a request under its route, as a child of the caller’s traceparent, with its queries', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const parent = 'b7ad6b7169203331';
    const created = await call('POST', '/api/v1/clients', { email: 'traced@example.com' });
    const client = JSON.parse(created.body).client;
    await call('GET', `/api/v1/clients/${client.id}`, undefined, {
      traceparent: `00-${traceId}-${parent}-01`,
    });
    const request = await waitUntil(
      () => otlp.spans.find((s) => s.traceId === traceId && s.kind === 2),
      10_000,
      'the request span',
    );
    expect(request).toMatchObject({ name: 'GET /api/v1/clients/:clientId', parentSpanId: parent });
    expect(request.attributes).toMatchObject({
      'http.route': '/api/v1/clients/:clientId',
      'sitewright.surface': 'api',
    });
    const query = await waitUntil(
      () => otlp.spans.find((s) => s.traceId === traceId && dbSystem(s) !== undefined),
      10_000,
      'a query span',
    );
    expect(dbSystem(query)).toBe(onPostgres ? 'postgresql' : 'sqlite');
    // Probes are not traced.
    await fetch(`${server.url}/readyz`);
    await new Promise((r) => setTimeout(r, 400));
    expect(otlp.spans.some((s) => s.name.includes('/readyz'))).toBe(false);
  });

  it('traces MCP tool calls, webhook attempts and generation jobs', async () => {
    await call('POST', '/api/v1/webhooks', { url: hooks.url('/traced'), events: ['client.created'] });
    const email = 'generated@example.com';
    await call('POST', '/api/v1/clients', { email });
    const project = JSON.parse(
      (await call('POST', '/api/v1/projects', { name: 'Bakery', client_email: email })).body,
    ).project;
    expect(
      (await call('POST', `/api/v1/projects/${project.id}/generate`, { prompt: 'A bakery in Lyon' })).status,
    ).toBe(202);
    const mcp = await call(
      'POST',
      '/api/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_clients', arguments: {} } },
      { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    );
    expect(mcp.status).toBe(200);
    for (const name of ['mcp tool list_clients', 'webhook attempt', 'generation job'])
      await waitUntil(() => otlp.spans.find((s) => s.name === name), 20_000, `a span '${name}'`);
    const tool = otlp.spans.find((s) => s.name === 'mcp tool list_clients')!;
    const post = otlp.spans.find((s) => s.spanId === tool.parentSpanId);
    expect(post?.name).toBe('POST /api/mcp');
  });

  it('writes URLs without their secrets, and exports traces only', async () => {
    const secret = 'Zq8sEcReT0kEn9xYzq8SeCrEt';
    await fetch(`${server.url}/reset-password/${secret}`);
    await fetch(`${server.url}/build?prompt=${secret}&org=x`);
    await waitUntil(
      () =>
        otlp.spans.filter((s) => s.kind === 2 && /reset-password|build/.test(JSON.stringify(s))).length >= 2,
      10_000,
      'the two request spans',
    );
    expect(JSON.stringify(otlp.spans)).not.toContain(secret);
    expect(JSON.stringify(otlp.spans)).toContain('/reset-password/[redacted]');
    expect(new Set(otlp.paths)).toEqual(new Set(['/v1/traces']));
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('loads no OpenTelemetry module at all (and with it, does)', async () => {
    const { execFile } = await import('node:child_process');
    const run = (extra: Record<string, string>) =>
      new Promise<string>((resolve) =>
        execFile(
          process.execPath,
          ['--import', WATCH, BIN, 'org', 'list'],
          { env: { ...env, ...extra } },
          (_e, _o, stderr) => resolve(stderr),
        ),
      );
    expect(await run({})).not.toContain('LOADED');
    expect(await run({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_TRACES_EXPORTER: 'none' })).toContain(
      'LOADED',
    );
  });
});
