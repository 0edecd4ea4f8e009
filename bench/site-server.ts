// Child process of bench/site-serving.ts and bench/analytics-capture.ts: the real server (SQLite,
// or PostgreSQL with BENCH_DATABASE_URL) with one published site whose index.html is the given
// 10 KB file. Page-view capture is on unless BENCH_CAPTURE=false.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { pino } from 'pino';
import { createContainer } from '../src/container.ts';
import { buildServer } from '../src/main.ts';

const html = readFileSync(process.argv[2]!, 'utf8');
const config = loadConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'sitewright-sites-')),
  DATABASE_URL: process.env.BENCH_DATABASE_URL,
  RATE_LIMIT_QUOTA: '1000000000',
  LOG_LEVEL: 'warn',
  SITES_DOMAIN: 'sites.bench',
  ANALYTICS_CAPTURE: process.env.BENCH_CAPTURE ?? 'true',
  ANALYTICS_RAW_RETENTION_DAYS: process.env.ANALYTICS_RAW_RETENTION_DAYS,
});
const runtime = await createContainer(config);
const app = await buildServer(runtime, pino({ level: 'warn' }));
const { orgs, capture } = runtime.services;
const org = await orgs.createOrg(`Bench sites ${process.pid}`);
const key = (await orgs.createKey(org.id, ['read', 'write'], 'bench')).key;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const client = (
  await app.inject({
    method: 'POST',
    url: '/api/v1/clients',
    headers,
    payload: { email: 'bench@example.com' },
  })
).json().client;
const project = (
  await app.inject({
    method: 'POST',
    url: '/api/v1/projects',
    headers,
    payload: { name: 'bench', client_email: client.email },
  })
).json().project;
const published = await app.inject({
  method: 'POST',
  url: `/api/v1/projects/${project.id}/publish`,
  headers,
  payload: { builtFiles: { 'index.html': html } },
});
if (published.statusCode !== 200)
  throw new Error(`publish answered ${published.statusCode}: ${published.body}`);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send!({ address, host: `${project.subdomain}.sites.bench` });
process.on('message', (m) => {
  if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
  if (m === 'views') void capture.flush().then(() => process.send!({ views: capture.stats }));
  if (m === 'stop')
    void app
      .close()
      .then(() => runtime.close())
      .then(() => process.exit(0));
});
