// Entry of worker threads whose code is TypeScript: a worker does not inherit the tsx hooks of
// the thread that starts it, so it registers them before importing its real entry.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
