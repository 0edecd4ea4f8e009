#!/usr/bin/env node
// The `sitewright` command. It runs the JavaScript compiled from src/ into dist/, never older code:
// if src/ changed since the last build (or there is none yet), it builds first (bin/build.js).
import { ensureBuilt } from './build.js';

try {
  ensureBuilt();
} catch (error) {
  process.stderr.write(`sitewright: ${error.message}\n`);
  process.exit(1);
}
await import('../dist/cli/main.js');
