// The thread that copies a SQLite database for a backup (db/backup.ts `snapshotSqlite`): the copy
// and its integrity check are synchronous in better-sqlite3, and on a large database take
// seconds, which the server's event loop must not wait through.
import { parentPort, workerData } from 'node:worker_threads';
import { copySqlite } from './sqlite-copy.ts';

const { file, out } = workerData as { file: string; out: string };
copySqlite(file, out).then(
  (migration) => parentPort!.postMessage({ migration }),
  (error: unknown) => parentPort!.postMessage({ error: (error as Error).message }),
);
