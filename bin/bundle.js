#!/usr/bin/env node
// The second half of `npm run build` (after `tsc -p tsconfig.build.json`): bundles the pages' browser
// code (the builder, src/ui/client/) with esbuild into dist/bundles/, which src/ui/routes/assets.ts
// serves. One module per entry; the parts loaded on demand (the code editor) are split into chunks
// named by their content. The folder is emptied first, so no chunk of an older build stays behind.
import { rmSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import { buildSync } from 'esbuild';

const path = (relative) => fileURLToPath(new URL(`../${relative}`, import.meta.url));
const outdir = path('dist/bundles');
rmSync(outdir, { recursive: true, force: true });
buildSync({
  entryPoints: [path('src/ui/client/builder.js'), path('src/ui/client/embed-bridge.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  minify: true,
  target: ['es2022'],
  chunkNames: 'chunk-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
});
