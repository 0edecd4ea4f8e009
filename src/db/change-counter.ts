// SQLite's `PRAGMA data_version` on the read connection: a number that moves whenever any other
// connection (this process's writer, the CLI, another process) commits. A value cached together
// with the counter is still true while the counter has not moved. PostgreSQL has no such
// counter: there, undefined, and callers do not cache.
import type { Database } from './index.ts';

export function changeCounter(database: Database): (() => number) | undefined {
  const statement = database.sqliteReader?.prepare('PRAGMA data_version').pluck();
  return statement && (() => statement.get() as number);
}
