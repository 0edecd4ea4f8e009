// Starting a worker thread on a module that sits beside the caller: the compiled `.js` in dist/
// when the server runs, the TypeScript source when the tests run (compiled on load by tsx).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `callerUrl`: the caller's import.meta.url; `name`: the thread module's name without extension. */
export function startThread(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  return callerUrl.endsWith('.ts')
    ? new Worker(new URL(`./${name}.ts`, callerUrl), { ...options, execArgv: tsxInThread() })
    : new Worker(new URL(`./${name}.js`, callerUrl), options);
}

/**
 * For the tests only: the execArgv that has a worker thread compile TypeScript on load with tsx (a
 * development dependency). `--import tsx` would not do: on Node 20, tsx registers itself in the
 * main thread only, so the thread preloads tsx's API (its ES module build) and registers it.
 */
function tsxInThread(): string[] {
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  return [
    '--import',
    `data:text/javascript,import{register}from${JSON.stringify(pathToFileURL(api).href)};register()`,
  ];
}
