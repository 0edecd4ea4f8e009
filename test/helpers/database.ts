// Each test file gets its own database: a temporary SQLite directory, or, when
// TEST_DATABASE_URL is set, a fresh PostgreSQL database created from it and dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const onPostgres = Boolean(TEST_DATABASE_URL);

export interface TestDatabase {
  dataDir: string;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}

/** `adminUrl`: the PostgreSQL database to create the new one from (benchmarks pass their own); none: SQLite. */
export async function createTestDatabase(adminUrl = TEST_DATABASE_URL): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitewright-test-'));
  if (!adminUrl) {
    return {
      dataDir,
      databaseUrl: undefined,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `sw_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      // pg-pool's end() resolves before its connections have closed; terminating one still
      // closing (FORCE) makes it emit an unhandled error. Give them a moment to go first.
      for (let i = 0; i < 50; i++) {
        const { rows } = await client.query(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
