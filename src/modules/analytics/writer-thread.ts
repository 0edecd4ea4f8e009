// The capture's writer thread: it owns a database connection of its own and does all the work of
// recording views (parsing, hashing, SQL), so that none of it runs on the event loop that serves
// the sites. Messages: {id, write: flat ServedPage fields} | {id, prune: ms} | {id, close: true};
// each is answered {id, result} or {id, error}.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, type DatabaseOptions } from '../../db/index.ts';
import { ViewRecorder, type QueuedPages } from './recorder.ts';

type Request = { id: number } & ({ write: QueuedPages } | { prune: number } | { close: true });

const { database: options, rawRetentionDays } = workerData as {
  database: DatabaseOptions;
  rawRetentionDays: number;
};
// The server has migrated the database before starting this thread. On SQLite this connection
// commits without waiting for fsync (WAL with synchronous=NORMAL): a power cut may lose the
// last batch of views, never the database, and views are only counts.
const database = openDatabase({ ...options, sqliteSynchronous: 'NORMAL', pgPoolSize: 2 });
const recorder = new ViewRecorder(database, rawRetentionDays);

// Recording views is background work: on a busy machine it yields the CPU to serving pages
// (nice 10 for this thread only; Linux names a thread by its id in /proc/thread-self). It still
// gets its share, and the queue in front of it is bounded (capture.ts), so a writer that falls
// behind costs views, never pages. Elsewhere the thread keeps the process's priority.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {
  // Not Linux, or not allowed: same priority as the server.
}

// One request at a time, in order: a close never overtakes a write.
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (request: Request) => {
  queue = queue.then(async () => {
    try {
      let result: unknown;
      if ('write' in request) result = await recorder.write(request.write);
      else if ('prune' in request) result = await recorder.prune(new Date(request.prune));
      else await database.close();
      parentPort!.postMessage({ id: request.id, result });
    } catch (error) {
      parentPort!.postMessage({
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  });
});
