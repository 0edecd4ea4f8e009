// `npm run bench:analytics`: GET /api/v1/analytics over a year of traffic. Loads 10 million page
// views across 1,000 sites over 365 days straight into the tables (the daily rollups every report
// reads, and the raw views of the last ANALYTICS_RAW_RETENTION_DAYS, 30, packed as capture leaves them),
// then times the report for the busiest site and for the whole organization over 30 and 365 days,
// through the real HTTP server. SQLite by default; BENCH_DATABASE_URL=postgres://.../postgres runs
// it on PostgreSQL in a database it creates and drops.
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { createContainer } from '../src/container.ts';
import { pino } from 'pino';
import type { Database } from '../src/db/index.ts';
import { newId } from '../src/lib/ids.ts';
import { ORG_SCOPE, viewWriter, type RawView, type Rollup } from '../src/modules/analytics/views-repo.ts';
import { createTestDatabase } from '../test/helpers/database.ts';
import { generateTraffic } from './traffic.ts';

const VIEWS = Number(process.env.BENCH_VIEWS ?? 10_000_000);
const SITES = Number(process.env.BENCH_SITES ?? 1_000);
const RAW_DAYS = 30;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);

// A fresh database (the tests' helper): a temporary SQLite directory, or a PostgreSQL database
// created from BENCH_DATABASE_URL, dropped at the end either way.
const scratch = await createTestDatabase(process.env.BENCH_DATABASE_URL);
const config = loadConfig({
  DATA_DIR: scratch.dataDir,
  DATABASE_URL: scratch.databaseUrl,
  RATE_LIMIT_QUOTA: '1000000000',
  LOG_LEVEL: 'warn',
});
const runtime = await createContainer(config);
const ctx = runtime;
const database = ctx.database;
const org = await ctx.services.orgs.createOrg(`Analytics bench ${Date.now()}`);
const key = (await ctx.services.orgs.createKey(org.id, ['read'], 'bench')).key;

// 1,000 sites of one client, written directly (every NOT NULL column of projects).
const now = new Date().toISOString();
const clientId = newId();
const userId = newId();
await database.db
  .insertInto('clients')
  .values({
    id: clientId,
    org_id: org.id,
    user_id: userId,
    email: 'bench@example.com',
    email_lower: 'bench@example.com',
    name: null,
    company: null,
    status: 'active',
    plan_id: null,
    payment_status: 'none',
    created_at: now,
    updated_at: now,
  })
  .execute();
const projectIds = Array.from({ length: SITES }, () => newId());
const projects = projectIds.map((id, i) => ({
  id,
  org_id: org.id,
  user_id: userId,
  org_client_id: clientId,
  name: `Site ${i}`,
  name_lower: `site ${i}`,
  status: 'active',
  tags: '[]',
  starred: false,
  is_public: false,
  subdomain: `bench-${i}-${id.slice(-8)}`,
  created_at: now,
  updated_at: now,
}));
for (let i = 0; i < projects.length; i += 100)
  await database.db
    .insertInto('projects')
    .values(projects.slice(i, i + 100))
    .execute();

console.log(
  `engine: ${database.engine}; generating and loading ${VIEWS.toLocaleString()} views across ${SITES} sites over 365 days...`,
);
const started = performance.now();
let total = 0;
let rollupRows = 0;
let rawRows = 0;
let busiest = { id: '', views: -1 };
for (const site of generateTraffic({
  views: VIEWS,
  sites: projectIds,
  orgId: org.id,
  orgScope: ORG_SCOPE,
  days: 365,
  rawDays: RAW_DAYS,
  today: new Date(),
})) {
  total += site.views;
  rollupRows += site.rollups.length;
  rawRows += site.raw.length;
  if (site.views > busiest.views) busiest = { id: site.projectId, views: site.views };
  await load(database, site.rollups, site.raw);
}
if (database.engine === 'postgres') await sql`analyze`.execute(database.db);
console.log(
  `loaded in ${((performance.now() - started) / 1000).toFixed(1)} s: ${total.toLocaleString()} views as ` +
    `${rollupRows.toLocaleString()} rollup rows and ${rawRows.toLocaleString()} raw views (the last ${RAW_DAYS} days, in packs per site and day)`,
);

const app = await buildApp(ctx, { logger: pino({ level: 'warn' }) });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

async function time(path: string) {
  const get = async () => {
    const t0 = performance.now();
    const res = await fetch(`${address}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { analytics: { totalViews: number } };
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - t0, views: body.analytics.totalViews };
  };
  for (let i = 0; i < 3; i++) await get(); // warm-up
  const runs = [];
  for (let i = 0; i < SAMPLES; i++) runs.push(await get());
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
  return { p50: at(0.5), p95: at(0.95), views: runs[0]!.views };
}

const rows = [];
for (const [name, query] of [
  ['busiest site, 30 days', `?days=30&project_id=${busiest.id}`],
  ['busiest site, 365 days', `?days=365&project_id=${busiest.id}`],
  ['whole org, 30 days', '?days=30'],
  ['whole org, 365 days', '?days=365'],
] as const) {
  const r = await time(`/api/v1/analytics${query}`);
  rows.push({
    report: name,
    totalViews: r.views,
    'p50 ms': r.p50.toFixed(1),
    'p95 ms': r.p95.toFixed(1),
    'target p50 < 50 ms': r.p50 < 50 ? 'met' : 'NOT met',
  });
}
console.table(rows);

await app.close();
await runtime.close();
await scratch.drop();

/** The rows of one site, written by the statements capture itself uses, in one transaction. */
async function load(db: Database, rollups: Rollup[], raw: RawView[]): Promise<void> {
  const writer = viewWriter(db);
  await db.db.transaction().execute(async (trx) => {
    await writer.insertRaw(trx, raw);
    await writer.addRollups(trx, rollups);
  });
}
