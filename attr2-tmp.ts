import { loadConfig } from './src/config.ts';
import { createRuntime } from './src/runtime.ts';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { Client, ClientParams } from './src/modules/clients/schema.ts';
import { errorResponses } from './src/http/schemas.ts';
import { createSiteHandler } from './src/sites/hosting/serve.ts';
import { registerErrorHandling } from './src/http/error-handler.ts';
import { schemaErrorFormatter, validatorCompiler } from './src/http/validation.ts';
import { registerOpenApi } from './src/http/openapi.ts';
import { registerApiGuard } from './src/http/api-guard.ts';
import { apiModules } from './src/modules/index.ts';
const ready = JSON.parse(readFileSync('/tmp/bdb/ready.json', 'utf8'));
const config = loadConfig({ DATA_DIR: '/tmp/bdb', RATE_LIMIT_QUOTA: '1000000000', LOG_LEVEL: 'warn', SQLITE_SYNCHRONOUS: 'NORMAL' });
const { ctx } = await createRuntime(config);
const clientId = ready.paths.client.split('/').pop();
const obj = { client: await (async () => { const { ClientsService } = await import('./src/modules/clients/service.ts'); const c = await ctx.orgs.authenticate(ready.key); return new ClientsService(ctx).get(c!.orgId, clientId); })() };
async function make(level: number) {
  const site = createSiteHandler(ctx);
  const app = Fastify({
    logger: { level: 'warn' }, requestIdHeader: false, genReqId: () => randomUUID(),
    ...(level >= 1 ? { serverFactory: (handler: any) => createServer((req, res) => { const s = site.handle(req, res); if (s === false) handler(req, res); }) } : {}),
    ...(level >= 2 ? { schemaErrorFormatter, return503OnClosing: true, trustProxy: false } : {}),
  });
  if (level >= 2) { app.setValidatorCompiler(validatorCompiler); registerErrorHandling(app); }
  app.addHook('onRequest', (req, reply, done) => { reply.header('x-request-id', req.id); done(); });
  if (level >= 4) registerApiGuard(app, ctx);
  else app.addHook('onRequest', async (req, reply) => { const a = await Promise.resolve(1); const b = await Promise.resolve(2); (req as any).caller = { orgId: 'x' }; reply.headers({ 'ratelimit-policy': 'x', ratelimit: `"v1";r=${a};t=${b}`, 'x-ratelimit-limit': 100, 'x-ratelimit-remaining': a, 'x-ratelimit-reset': b }); });
  if (level >= 3) await registerOpenApi(app, ctx);
  app.get('/api/v1/clients/:clientId', { schema: { params: ClientParams, querystring: Type.Object({}, { additionalProperties: false }), response: { 200: Type.Object({ client: Client }, { additionalProperties: false }), ...errorResponses(400, 403, 404) } } }, async () => obj);
  if (level >= 5) for (const routes of apiModules) await app.register(routes(ctx), { prefix: '/api/v1/x' });
  await app.ready();
  return app.listen({ port: 0, host: '127.0.0.1' });
}
const addrs: Record<string, string> = {};
for (const l of [0, 4, 5]) addrs['L' + l] = await make(l);
const { buildApp } = await import('./src/http/app.ts');
addrs.real = await (await buildApp(ctx, { level: 'warn' })).listen({ port: 0, host: '127.0.0.1' });
const { ClientsService } = await import('./src/modules/clients/service.ts');
ClientsService.prototype.get = async function () { return obj.client as any; };
addrs.realnosql = await (await buildApp(ctx, { level: 'warn' })).listen({ port: 0, host: '127.0.0.1' });
process.send!({ addrs, path: ready.paths.client, key: ready.key });
process.on('message', (m) => { if (m === 'cpu') process.send!({ cpu: process.cpuUsage() }); if (m === 'stop') process.exit(0); });
