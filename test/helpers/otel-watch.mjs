// A module hook for test/cli/tracing.test.ts: registered with `node --import`, it writes to stderr
// every module of @opentelemetry that the process loads.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('/node_modules/@opentelemetry/')) process.stderr.write('LOADED ' + resolved.url + '\\n');
  return resolved;
}`)}`,
);
