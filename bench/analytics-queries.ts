// `npm run bench:analytics`: GET /api/v1/analytics over a year of traffic. Loads 10 million page
// views across 1,000 sites over 365 days straight into the tables (the daily rollups every report
// reads, and the raw rows of the last ANALYTICS_RAW_RETENTION_DAYS, 30, as capture leaves them),
// then times the report for the busiest site and for the whole organization over 30 and 365 days,
// through the real HTTP server. SQLite by default; BENCH_DATABASE_URL=postgres://.../postgres runs
// it on PostgreSQL in a database it creates and drops.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { createRuntime } from '../src/runtime.ts';
import type { Database } from '../src/db/index.ts';
import { newId } from '../src/lib/ids.ts';
import { ORG_SCOPE } from '../src/modules/analytics/rollups.ts';
import { generateTraffic, type RawRow, type RollupRow } from './traffic.ts';

const VIEWS = Number(process.env.BENCH_VIEWS ?? 10_000_000);
const SITES = Number(process.env.BENCH_SITES ?? 1_000);
const RAW_DAYS = 30;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);

const adminUrl = process.env.BENCH_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'sitewright-analytics-'));
let databaseUrl: string | undefined;
const dbName = `sitewright_bench_${process.pid}`;
if (adminUrl) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
}

const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, RATE_LIMIT_QUOTA: '1000000000', LOG_LEVEL: 'warn' });
const runtime = await createRuntime(config);
const { ctx } = runtime;
const database = ctx.database;
const org = await ctx.orgs.createOrg(`Analytics bench ${Date.now()}`);
const key = (await ctx.orgs.createKey(org.id, ['read'], 'bench')).key;

// 1,000 sites of one client, written directly (every NOT NULL column of projects).
const now = new Date().toISOString();
const clientId = newId();
const userId = newId();
await database.db
  .insertInto('clients')
  .values({ id: clientId, org_id: org.id, user_id: userId, email: 'bench@example.com', email_lower: 'bench@example.com', name: null, company: null, status: 'active', plan_id: null, payment_status: 'none', created_at: now, updated_at: now })
  .execute();
const projectIds = Array.from({ length: SITES }, () => newId());
const projects = projectIds.map((id, i) => ({
  id, org_id: org.id, user_id: userId, org_client_id: clientId, name: `Site ${i}`, name_lower: `site ${i}`, status: 'active', tags: '[]',
  starred: false, is_public: false, subdomain: `bench-${i}-${id.slice(-8)}`, created_at: now, updated_at: now,
}));
for (let i = 0; i < projects.length; i += 100) await database.db.insertInto('projects').values(projects.slice(i, i + 100)).execute();

console.log(`engine: ${database.engine}; generating and loading ${VIEWS.toLocaleString()} views across ${SITES} sites over 365 days...`);
const started = performance.now();
let total = 0;
let rollupRows = 0;
let rawRows = 0;
let busiest = { id: '', views: -1 };
const writer = bulkWriter(database);
for (const site of generateTraffic({ views: VIEWS, sites: projectIds, orgId: org.id, orgScope: ORG_SCOPE, days: 365, rawDays: RAW_DAYS, today: new Date() })) {
  total += site.views;
  rollupRows += site.rollups.length;
  rawRows += site.raw.length;
  if (site.views > busiest.views) busiest = { id: site.projectId, views: site.views };
  await writer.add(site.rollups, site.raw);
}
await writer.finish();
if (database.engine === 'postgres') await sql`analyze`.execute(database.db);
console.log(
  `loaded in ${((performance.now() - started) / 1000).toFixed(1)} s: ${total.toLocaleString()} views as ` +
    `${rollupRows.toLocaleString()} rollup rows and ${rawRows.toLocaleString()} raw rows (the last ${RAW_DAYS} days)`,
);

const app = await buildApp(ctx, { level: 'warn' });
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
  rows.push({ report: name, totalViews: r.views, 'p50 ms': r.p50.toFixed(1), 'p95 ms': r.p95.toFixed(1), 'target p50 < 50 ms': r.p50 < 50 ? 'met' : 'NOT met' });
}
console.table(rows);

await app.close();
await runtime.close();
rmSync(dataDir, { recursive: true, force: true });
if (adminUrl) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}

/** Plain bulk inserts: prepared statements in large transactions on SQLite, unnest() batches on PostgreSQL. */
function bulkWriter(db: Database): { add(rollups: RollupRow[], raw: RawRow[]): Promise<void>; finish(): Promise<void> } {
  if (db.sqliteWriter) {
    const connection = db.sqliteWriter;
    const insertRollup = connection.prepare('insert into page_view_rollups (org_id, scope, dimension, day, key, views, visitors) values (?, ?, ?, ?, ?, ?, ?)');
    const insertRaw = connection.prepare('insert into page_views (org_id, project_id, path, referrer, device, visitor_hash, viewed_at) values (?, ?, ?, ?, ?, ?, ?)');
    const write = connection.transaction((rollups: RollupRow[], raw: RawRow[]) => {
      for (const r of rollups) insertRollup.run(r.org_id, r.scope, r.dimension, r.day, r.key, r.views, r.visitors);
      for (const r of raw) insertRaw.run(r.org_id, r.project_id, r.path, r.referrer, r.device, r.visitor_hash, r.viewed_at);
    });
    return { add: async (rollups, raw) => write(rollups, raw), finish: async () => {} };
  }
  const col = <T, K extends keyof T>(rows: T[], k: K) => rows.map((r) => r[k]);
  let rollupBuffer: RollupRow[] = [];
  let rawBuffer: RawRow[] = [];
  const flush = async () => {
    const [rollups, raw] = [rollupBuffer, rawBuffer];
    rollupBuffer = [];
    rawBuffer = [];
    if (rollups.length > 0) {
      await sql`insert into page_view_rollups (org_id, scope, dimension, day, key, views, visitors)
        select * from unnest(${col(rollups, 'org_id')}::text[], ${col(rollups, 'scope')}::text[], ${col(rollups, 'dimension')}::text[], ${col(rollups, 'day')}::text[],
          ${col(rollups, 'key')}::text[], ${col(rollups, 'views')}::integer[], ${col(rollups, 'visitors')}::integer[])`.execute(db.db);
    }
    if (raw.length > 0) {
      await sql`insert into page_views (org_id, project_id, path, referrer, device, visitor_hash, viewed_at)
        select * from unnest(${col(raw, 'org_id')}::text[], ${col(raw, 'project_id')}::text[], ${col(raw, 'path')}::text[], ${col(raw, 'referrer')}::text[],
          ${col(raw, 'device')}::text[], ${col(raw, 'visitor_hash')}::text[], ${col(raw, 'viewed_at')}::timestamptz[])`.execute(db.db);
    }
  };
  return {
    add: async (rollups, raw) => {
      rollupBuffer.push(...rollups);
      rawBuffer.push(...raw);
      if (rollupBuffer.length + rawBuffer.length >= 20_000) await flush();
    },
    finish: flush,
  };
}
