// One Kysely instance over either engine: SQLite under DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type LogEvent,
  type SqliteDatabase,
  type SqliteStatement,
  type Transaction,
} from 'kysely';
import type { DB } from './schema.ts';
import { tracing, tracingOn } from '../lib/tracing.ts';
import { tagEngine, type Engine } from './engine.ts';

export type { Engine } from './engine.ts';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /**
   * Runs `fn` in one transaction (committed when it resolves, rolled back when it throws). Open
   * every transaction here: the repos read the engine from the transaction (db/engine.ts).
   */
  transaction<T>(fn: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
  /** SQLite only: a second, read-only connection for prepared hot-path reads (see db/prepared.ts). */
  sqliteReader?: SQLite.Database;
  /** SQLite only: the connection behind `db`, for prepared bulk writes. Use it only inside a
   *  `db.transaction()` callback: the transaction holds the connection, so nothing interleaves. */
  sqliteWriter?: SQLite.Database;
  /** PostgreSQL only: the pool behind `db`, for prepared hot-path reads. */
  pgPool?: pg.Pool;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  sqliteSynchronous?: 'NORMAL' | 'FULL';
  pgPoolSize?: number;
}

export function openDatabase(opts: DatabaseOptions): Database {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.pgPoolSize ?? 10) : openSqlite(opts);
}

function openPostgres(url: string, max: number): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection that the server ends (restart, failover, pg_terminate_backend) is an
  // 'error' event on the pool; unhandled, it would crash the process. The pool has already
  // dropped that client and opens a new one for the next query, so there is nothing to do.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    engine: 'postgres',
    transaction: transactions(db, 'postgres'),
    pgPool: pool,
    close: () => db.destroy(),
  };
}

function transactions(db: Kysely<DB>, engine: Engine): Database['transaction'] {
  tagEngine(db, engine);
  return (fn) =>
    db.transaction().execute((trx) => {
      tagEngine(trx, engine);
      return fn(trx);
    });
}

/** The SQLite database file under DATA_DIR. */
export function sqliteFile(dataDir: string): string {
  return join(dataDir, 'sitewright.db');
}

function openSqlite(opts: DatabaseOptions): Database {
  mkdirSync(opts.dataDir, { recursive: true });
  const file = sqliteFile(opts.dataDir);
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  // FULL fsyncs every commit: a committed write (and the event written with it) survives power loss.
  writer.pragma(`synchronous = ${opts.sqliteSynchronous ?? 'FULL'}`);
  writer.pragma('foreign_keys = ON');
  // The CLI and the server may share the file: wait for the other's write lock instead of failing.
  writer.pragma('busy_timeout = 5000');
  const reader = new SQLite(file, { readonly: true });
  reader.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: withBooleanParams(writer) }),
    // Traces only: SQLite has no instrumentation of its own, so each query is reported as it ends.
    ...(tracingOn()
      ? { log: (event: LogEvent) => tracing().query(event.query.sql, event.queryDurationMillis) }
      : {}),
  });
  return {
    db,
    engine: 'sqlite',
    transaction: transactions(db, 'sqlite'),
    sqliteReader: reader,
    sqliteWriter: writer,
    close: async () => {
      await db.destroy();
      reader.close();
    },
  };
}

/**
 * Every transaction takes SQLite's write lock when it begins (BEGIN IMMEDIATE), waiting for it up
 * to busy_timeout while another process of ours (a `sitewright worker`, a second server, the CLI)
 * writes. A plain BEGIN starts as a reader; when it then writes after another process committed,
 * SQLite cannot wait and fails at once with "database is locked". Our transactions nearly all
 * write, so nothing is lost by taking the lock up front.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

/** better-sqlite3 refuses to bind booleans; SQLite stores them as 0/1. */
export function sqliteParams(params: readonly unknown[]): unknown[] {
  return params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
}

function withBooleanParams(database: SQLite.Database): SqliteDatabase {
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const stmt = database.prepare(sql);
      return {
        reader: stmt.reader,
        all: (params) => stmt.all(sqliteParams(params)),
        run: (params) => stmt.run(sqliteParams(params)),
        iterate: (params) => stmt.iterate(sqliteParams(params)),
      };
    },
  };
}
