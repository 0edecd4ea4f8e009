// The engine's side of backups and restores: a consistent copy of a live database, and putting a
// copy in place of a database. SQLite copies through its online backup API; PostgreSQL through
// pg_dump and pg_restore, which must be on the PATH (the PostgreSQL client tools, of a version no
// older than the server's). The archive, its manifest and the schedule are modules/backups/.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sqliteFile } from './index.ts';
import { startThread } from '../lib/threads.ts';

export class RestoreRefusedError extends Error {}

/**
 * Copies the SQLite database `file` into `out` while the server goes on writing, checks the copy
 * (`integrity_check`) and answers the last migration it holds. The work runs in a thread of its
 * own (db/backup-thread.ts), so the event loop keeps serving meanwhile.
 */
export function snapshotSqlite(file: string, out: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const thread = startThread(import.meta.url, 'backup-thread', { workerData: { file, out } });
    thread.once('message', (answer: { migration?: string; error?: string }) =>
      answer.migration ? resolve(answer.migration) : reject(new Error(answer.error ?? 'the copy failed')),
    );
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the copy's thread stopped (${code})`)));
  });
}

/** The connection for pg's command-line tools: the URL without its password, which goes in PGPASSWORD (never on a command line others can read). */
function pgTool(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  // node-pg's own spellings, which libpq refuses: `ssl=true` and `sslmode=no-verify`.
  if (parsed.searchParams.has('ssl')) {
    if (!parsed.searchParams.has('sslmode') && parsed.searchParams.get('ssl') !== 'false')
      parsed.searchParams.set('sslmode', 'require');
    parsed.searchParams.delete('ssl');
  }
  if (parsed.searchParams.get('sslmode') === 'no-verify') parsed.searchParams.set('sslmode', 'require');
  return {
    dbname: parsed.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

/** Runs a PostgreSQL client tool; rejects with its message (stderr's end) when it fails. */
function runTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `${command} was not found: install the PostgreSQL client tools (Debian: postgresql-client)`
            : `${command}: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} failed: ${stderr.trim() || `exit ${code}`}`)),
    );
  });
}

async function withPg<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Dumps the PostgreSQL database into `out` (custom format: compressed, restorable table by
 * table), checks that pg_restore can list it, and answers the last migration it holds.
 */
export async function dumpPostgres(url: string, out: string): Promise<string> {
  const tool = pgTool(url);
  // pg_dump reads everything in one snapshot; the migrations are read before and after it, and a
  // dump taken while an upgrade migrated is refused rather than labelled wrong.
  const before = await withPg(url, lastMigrationPg);
  await runTool(
    'pg_dump',
    // Sitewright's schema only, not the schemas a forced restore kept aside.
    [
      '--format=custom',
      '--schema=public',
      '--no-owner',
      '--no-privileges',
      `--file=${out}`,
      `--dbname=${tool.dbname}`,
    ],
    tool.env,
  );
  const after = await withPg(url, lastMigrationPg);
  if (before !== after) throw new Error('the database was migrated while it was dumped; try again');
  const listing = await runTool('pg_restore', ['--list', out], tool.env);
  if (!/ TABLE DATA public kysely_migration /.test(listing))
    throw new Error('the dump does not list the tables it should hold');
  return before;
}

async function lastMigrationPg(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ name: string | null }>(
    'select max(name) as name from kysely_migration',
  );
  if (!rows[0]?.name) throw new Error('the database has run no migration');
  return rows[0].name;
}

/** `20261129T021500123Z`, for the names of what a restore keeps aside (never one already there). */
function stamp(at: Date): string {
  return at.toISOString().replace(/[-:.]/g, '');
}

const DATA_CHECK = 'select exists (select 1 from organizations) or exists (select 1 from users) as has';

/**
 * Puts the SQLite copy `copyFile` (on the same disk as `dataDir`) in place as the database. A
 * database already there is kept aside as `sitewright.db.before-restore-<time>`; one holding data
 * (an organization or an account) only with `force`. Answers the name it was kept under.
 */
export async function installSqlite(
  dataDir: string,
  copyFile: string,
  force: boolean,
): Promise<string | undefined> {
  const target = sqliteFile(dataDir);
  let aside: string | undefined;
  if (existsSync(target)) {
    const current = new SQLite(target, { fileMustExist: true });
    try {
      current.pragma('busy_timeout = 5000');
      const tables = current
        .prepare(
          "select count(*) as n from sqlite_master where type = 'table' and name in ('organizations', 'users')",
        )
        .get() as { n: number };
      const has = tables.n === 2 && (current.prepare(DATA_CHECK).get() as { has: number }).has === 1;
      if (has && !force)
        throw new RestoreRefusedError(
          `${target} already holds data; restore into an empty DATA_DIR, or pass --force to keep it aside and replace it`,
        );
      // Everything written goes into the main file, so the file kept aside is whole on its own.
      current.pragma('wal_checkpoint(TRUNCATE)');
      current.pragma('journal_mode = DELETE');
    } finally {
      current.close();
    }
    aside = `${target}.before-restore-${stamp(new Date())}`;
    if (existsSync(aside)) throw new RestoreRefusedError(`${aside} exists already; try again`);
    await rename(target, aside);
  }
  await rm(`${target}-wal`, { force: true });
  await rm(`${target}-shm`, { force: true });
  await rename(copyFile, target);
  return aside;
}

/**
 * Restores the dump `file` into the PostgreSQL database at `url`. Tables already there are kept
 * aside by renaming the schema `public` to `sitewright_before_restore_<time>`; a database holding
 * data only with `force`. The restore is one transaction: when it fails, the old schema is put
 * back. Answers the schema the old tables were kept in.
 */
export async function restorePostgres(
  url: string,
  file: string,
  force: boolean,
): Promise<string | undefined> {
  const aside = await withPg(url, async (client) => {
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from information_schema.tables where table_schema = 'public'",
    );
    if (Number(rows[0]!.n) === 0) return undefined;
    const names = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_name in ('organizations', 'users')",
    );
    const has = names.rows.length === 2 && (await client.query<{ has: boolean }>(DATA_CHECK)).rows[0]!.has;
    if (has && !force)
      throw new RestoreRefusedError(
        'the database already holds data; restore into an empty database, or pass --force to keep its tables aside and replace them',
      );
    const schema = `sitewright_before_restore_${stamp(new Date()).toLowerCase()}`;
    await client.query(`alter schema public rename to ${schema}`);
    await client.query('create schema public');
    return schema;
  });
  const tool = pgTool(url);
  try {
    // Everything but the schema `public` itself, which the database has (a fresh one, or the one
    // just made): the dump names it because it was taken with --schema=public.
    const listing = await runTool('pg_restore', ['--list', file], tool.env);
    const wanted = listing
      .split('\n')
      .filter((line) => !/ SCHEMA - public | COMMENT - SCHEMA public /.test(line))
      .join('\n');
    const list = `${file}.list`;
    await writeFile(list, wanted);
    await runTool(
      'pg_restore',
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        `--use-list=${list}`,
        `--dbname=${tool.dbname}`,
        file,
      ],
      tool.env,
    );
  } catch (error) {
    if (aside)
      await withPg(url, async (client) => {
        await client.query('drop schema public cascade');
        await client.query(`alter schema ${aside} rename to public`);
      });
    throw error;
  }
  return aside;
}
