// Child process of bench/run.ts: serves the real API (SQLite, fixtures loaded) and a bare Fastify
// app that returns the same bytes, so the two can be compared in one run on one machine.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { createRuntime } from '../src/runtime.ts';
import { newId } from '../src/lib/ids.ts';

const PROJECTS = 1000;

const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'sitewright-bench-'));
const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_QUOTA: '1000000000', LOG_LEVEL: 'warn', SQLITE_SYNCHRONOUS: 'NORMAL' });
const runtime = await createRuntime(config);
const { ctx } = runtime;
const api = await buildApp(ctx, { level: 'warn' });

// Fixtures: one organization, a key, a client with 1,000 projects.
const org = await ctx.orgs.createOrg(`Bench ${Date.now()}`);
const key = (await ctx.orgs.createKey(org.id, ['read', 'write'], 'bench')).key;
const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const client = (await api.inject({ method: 'POST', url: '/api/v1/clients', headers: auth, payload: { email: 'bench@example.com', name: 'Bench' } })).json().client;
const rows = [];
for (let i = 0; i < PROJECTS; i++) {
  const at = new Date(Date.now() - (PROJECTS - i) * 1000).toISOString();
  const name = `Bench site ${i}`;
  rows.push({
    id: newId(), org_id: org.id, user_id: newId(), org_client_id: client.id, name, name_lower: name.toLowerCase(),
    description: 'A site made for the benchmark', status: 'active', template: null, template_id: null, tags: '["bench"]',
    starred: false, is_public: false, subdomain: `bench-${i}-${org.id.slice(-6)}`, custom_domain: null, custom_domain_status: null,
    published_url: null, last_published_at: null, preview_image_url: null, created_at: at, updated_at: at, last_opened_at: null,
  });
}
for (let i = 0; i < rows.length; i += 100) await ctx.database.db.insertInto('projects').values(rows.slice(i, i + 100)).execute();

// What the real routes answer, for the bare twin to send back verbatim.
const paths = { client: `/api/v1/clients/${client.id}`, projects: '/api/v1/projects?limit=50' };
const clientBody = (await api.inject({ method: 'GET', url: paths.client, headers: auth })).body;
const projectsRes = await api.inject({ method: 'GET', url: paths.projects, headers: auth });
if (projectsRes.statusCode !== 200) throw new Error(`GET /projects answered ${projectsRes.statusCode}: ${projectsRes.body}`);
const createdBody = (await api.inject({ method: 'POST', url: '/api/v1/clients', headers: auth, payload: { email: 'sample@example.com' } })).body;

const bare = Fastify({ logger: false });
bare.get('/api/v1/clients/:id', async (_req, reply) => reply.type('application/json; charset=utf-8').send(clientBody));
bare.get('/api/v1/projects', async (_req, reply) => reply.type('application/json; charset=utf-8').send(projectsRes.body));
bare.post('/api/v1/clients', async (_req, reply) => reply.status(201).type('application/json; charset=utf-8').send(createdBody));

const apiAddress = await api.listen({ port: 0, host: '127.0.0.1' });
const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });
process.send!({ apiAddress, bareAddress, key, paths, bytes: { client: clientBody.length, projects: projectsRes.body.length } });

process.on('message', async (msg) => {
  // CPU time of this process, so the runner can report CPU per request: unlike req/s, it does
  // not depend on what else the machine is doing.
  if (msg === 'cpu') process.send!({ cpu: process.cpuUsage() });
  if (msg === 'stop') {
    await api.close();
    await bare.close();
    await runtime.close();
    process.exit(0);
  }
});
