// A consistent copy of a live SQLite database, checked: run in a thread of its own
// (db/backup-thread.ts) by db/backup.ts.
import SQLite from 'better-sqlite3';

/** Copies `file` into `out` while others go on writing; answers the last migration it holds. */
export async function copySqlite(file: string, out: string): Promise<string> {
  const source = new SQLite(file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // All remaining pages in one step, under one read transaction: in WAL mode writers go on
    // meanwhile, and no write by another connection can restart the copy, as it can between small
    // steps (a busy server could keep a stepwise copy from ever finishing).
    await source.backup(out, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new SQLite(out, { fileMustExist: true });
  try {
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`the copy failed its integrity check: ${String(integrity)}`);
    // The copy is one self-contained file, not a WAL database expecting a -wal beside it.
    copy.pragma('journal_mode = DELETE');
    const row = copy.prepare('select max(name) as name from kysely_migration').get() as {
      name: string | null;
    };
    if (!row.name) throw new Error('the database has run no migration');
    return row.name;
  } finally {
    copy.close();
  }
}
