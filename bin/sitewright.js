#!/usr/bin/env node
// The `sitewright` command: runs the JavaScript that `npm run build` compiles from src/ into dist/
// (`npm install` and `npm start` build it; after changing src/, run `npm run build` again).
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

if (!existsSync(new URL('../dist/cli/main.js', import.meta.url))) {
  process.stderr.write('sitewright: not built; run npm run build\n');
  process.exit(1);
}
// Traces only when asked for: otherwise no OpenTelemetry code is loaded at all.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) await import('../dist/providers/otel/start.js');
await import('../dist/cli/main.js');
