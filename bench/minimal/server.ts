// The minimal twin of `npm run bench`: what the four measured API operations cost with nothing
// but Fastify and the database driver. The same database work as the API (see sqlite.ts,
// postgres.ts), the same JSON, a bearer check that is one key look-up per request, and Fastify's
// own request log at the same LOG_LEVEL as the API (two lines per request at `info`). No cache,
// no schema validation, no rate limit: that difference is what the benchmark measures.
// Env: PORT, HOST, LOG_LEVEL, and TWIN_SQLITE_FILE or TWIN_DATABASE_URL.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import type { Caller, Store } from './records.ts';
import { sqliteStore } from './sqlite.ts';
import { postgresStore } from './postgres.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Named apart from the API's own `caller`: the project's type checking sees both. */
    twinCaller: Caller | null;
  }
}

const store: Store = process.env.TWIN_DATABASE_URL
  ? postgresStore(process.env.TWIN_DATABASE_URL)
  : sqliteStore(process.env.TWIN_SQLITE_FILE!);
const level = process.env.LOG_LEVEL ?? 'info';
const app = Fastify({ logger: level === 'silent' ? false : { level } });
const error = (message: string) => ({ error: message });

app.decorateRequest('twinCaller', null);
app.addHook('onRequest', async (request, reply) => {
  if (!request.url.startsWith('/api/v1/')) return;
  const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  const caller = token && (await store.caller(createHash('sha256').update(token).digest('hex')));
  if (!caller) return reply.code(401).send(error('Invalid or revoked API key'));
  const needed = request.method === 'GET' ? 'read' : 'write';
  if (!caller.permissions.split(',').includes(needed))
    return reply.code(403).send(error(`This API key lacks the '${needed}' permission`));
  request.twinCaller = caller;
});

app.get('/healthz', async () => ({ status: 'ok' }));

app.get<{ Params: { id: string } }>('/api/v1/clients/:id', async (request, reply) => {
  const client = await store.client(request.twinCaller!.orgId, request.params.id);
  return client ? { client } : reply.code(404).send(error('Client not found'));
});

app.get<{ Querystring: { limit?: string; offset?: string } }>('/api/v1/projects', async (request, reply) => {
  const limit = Number(request.query.limit ?? 50);
  const offset = Number(request.query.offset ?? 0);
  return reply
    .type('application/json; charset=utf-8')
    .send(await store.projectsPage(request.twinCaller!.orgId, limit, offset));
});

app.post<{ Body: { email?: unknown; name?: string; company?: string } }>(
  '/api/v1/clients',
  async (request, reply) => {
    const { email, name = null, company = null } = request.body ?? {};
    if (typeof email !== 'string') return reply.code(400).send(error("field 'email' is required"));
    const client = await store.createClient(request.twinCaller!.orgId, { email, name, company });
    if (!client)
      return reply
        .code(400)
        .send(error(`A client with email '${email}' already exists in this organization`));
    return reply.code(201).send({ client });
  },
);

app.patch<{ Params: { id: string }; Body: { name?: unknown } }>(
  '/api/v1/projects/:id',
  async (request, reply) => {
    const name = typeof request.body?.name === 'string' ? request.body.name.trim() : '';
    if (!name) return reply.code(400).send(error("field 'name' must not be blank"));
    const project = await store.renameProject(request.twinCaller!.orgId, request.params.id, name);
    return project ? { project } : reply.code(404).send(error('Project not found'));
  },
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(
    signal,
    () =>
      void app
        .close()
        .then(() => store.close())
        .then(() => process.exit(0)),
  );
}
await app.listen({ port: Number(process.env.PORT ?? 3001), host: process.env.HOST ?? '127.0.0.1' });
