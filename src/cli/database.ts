// Which database a CLI command works on. Run with another DATA_DIR than the server's, the CLI used
// to create a new, empty SQLite database silently, and a key made there failed with 401 and no
// hint. Now only `migrate` and `start` create a database; every other command refuses one that
// does not exist or holds no Sitewright tables, naming it, and a command that writes says on
// stderr which database it wrote to.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config.ts';
import { openDatabase, sqliteFile, type Database } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { CliError } from './output.ts';

/** The database as an operator recognises it: the SQLite file's absolute path, or PostgreSQL's host/dbname (no credentials). */
export function databaseName(config: Config): string {
  if (!config.databaseUrl) return `SQLite ${resolve(sqliteFile(config.dataDir))}`;
  try {
    const url = new URL(config.databaseUrl);
    return `PostgreSQL ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/** Says on stderr which database a command that writes opened. */
export function announceDatabase(config: Config): void {
  process.stderr.write(`sitewright: database: ${databaseName(config)}\n`);
}

const HINT =
  'Set DATA_DIR (or DATABASE_URL) to the one the server uses, or run `sitewright migrate` to create a new database there.';

/** Opens the server's existing database (applying any pending migrations), never a new one. */
export async function openExistingDatabase(config: Config): Promise<Database> {
  if (!config.databaseUrl && !existsSync(sqliteFile(config.dataDir))) {
    throw new CliError(
      `no database at ${resolve(sqliteFile(config.dataDir))} (DATA_DIR=${config.dataDir}). ${HINT}`,
    );
  }
  const database = openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    sqliteSynchronous: config.sqliteSynchronous,
  });
  try {
    const tables = await database.db.introspection.getTables();
    if (!tables.some((t) => t.name === 'organizations'))
      throw new CliError(`${databaseName(config)} holds no Sitewright tables. ${HINT}`);
    await migrateToLatest(database.db, database.engine);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
