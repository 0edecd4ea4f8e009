// The two databases of `npm run bench`: the API's, loaded with fixtures, and a copy of it for the
// minimal twin, so that the two servers never share a writer (on SQLite one would wait for the
// other's write lock). SQLite by default; BENCH_DATABASE_URL=postgres://... (a database to
// connect to for CREATE/DROP DATABASE) runs both on PostgreSQL. Both are removed by cleanup.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { onCleanup } from '../lib/cleanup.ts';

export interface BenchDatabases {
  engine: 'sqlite' | 'postgres';
  /** Settings that point the API (server and CLI) at its database. */
  api: Record<string, string>;
  /** PostgreSQL: text in the process titles of each database's backends, to count their CPU. */
  match?: { api: string; twin: string };
  /** Makes the twin's copy; call it while no connection to the API's database is open. Returns the twin's settings. */
  copyForTwin(): Promise<Record<string, string>>;
}

export async function benchDatabases(tmp: string): Promise<BenchDatabases> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  return adminUrl ? postgres(adminUrl) : sqlite(tmp);
}

function sqlite(tmp: string): BenchDatabases {
  const apiDir = join(tmp, 'api-data');
  const twinDir = join(tmp, 'twin-data');
  return {
    engine: 'sqlite',
    api: { DATA_DIR: apiDir },
    async copyForTwin() {
      // Everything committed goes from the WAL into the main file, which can then be copied alone.
      const db = new SQLite(join(apiDir, 'sitewright.db'));
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      mkdirSync(twinDir, { recursive: true });
      copyFileSync(join(apiDir, 'sitewright.db'), join(twinDir, 'sitewright.db'));
      return { TWIN_SQLITE_FILE: join(twinDir, 'sitewright.db') };
    },
  };
}

async function postgres(adminUrl: string): Promise<BenchDatabases> {
  const name = `sitewright_bench_${process.pid}`;
  const names = { api: `${name}_api`, twin: `${name}_twin` };
  const urlOf = (db: string) => {
    const u = new URL(adminUrl);
    u.pathname = `/${db}`;
    return u.toString();
  };
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  onCleanup(async () => {
    for (const db of [names.twin, names.api]) await admin(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  });
  await admin(`CREATE DATABASE ${names.api}`);
  return {
    engine: 'postgres',
    api: { DATABASE_URL: urlOf(names.api) },
    match: { api: ` ${names.api} `, twin: ` ${names.twin} ` },
    async copyForTwin() {
      // A template must have no other connection open: the API and the CLI are stopped by now.
      await admin(`CREATE DATABASE ${names.twin} TEMPLATE ${names.api}`);
      return { TWIN_DATABASE_URL: urlOf(names.twin) };
    },
  };
}
