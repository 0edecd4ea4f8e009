import { Worker } from 'node:worker_threads';

/** Starts a worker thread running the TypeScript module `entry`, with `data` as its workerData. */
export function startTsWorker(entry: URL, data: Record<string, unknown>): Worker {
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: { ...data, entry: entry.href } });
}
