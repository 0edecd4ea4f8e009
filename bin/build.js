#!/usr/bin/env node
// The build: TypeScript compiles src/ to JavaScript in dist/ (tsconfig.build.json), which is what the
// `sitewright` command runs. `npm run build` runs this file; bin/sitewright.js calls `ensureBuilt()`
// on every start, which only stats files unless src/ changed since the last build.
//
//   node bin/build.js             compile (incremental: only what changed is compiled again)
//   node bin/build.js --if-stale  compile only if src/ changed since the last build
//
// Type errors are printed but do not stop the build (the JavaScript is written anyway, as tsc does):
// `npm run typecheck` is the check that fails on them. Each file is written whole (to a temporary
// name, then renamed), so a process starting while a build runs never reads half a file; one build
// runs at a time (dist/.build.lock). dist/.built is stamped with the time the build started: a file
// saved in src/ after that makes the build stale again.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const CONFIG = join(ROOT, 'tsconfig.build.json');
const STAMP = join(DIST, '.built');
const LOCK = join(DIST, '.build.lock');
/** The browser's code of the pages (the builder), bundled from src/ui/client/. */
const BUNDLES = join(DIST, 'bundles');
const BUNDLE_ENTRIES = [join(SRC, 'ui', 'client', 'builder.js')];
/** Besides src/, what the output depends on. */
const CONFIG_FILES = [CONFIG, join(ROOT, 'tsconfig.json')];

/** The newest modification time (ms) in src/, counting folders (a file removed or renamed changes its folder's). */
function newestSource() {
  let newest = Math.max(...CONFIG_FILES.map((file) => statSync(file).mtimeMs));
  const walk = (dir) => {
    newest = Math.max(newest, statSync(dir).mtimeMs);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(SRC);
  return newest;
}

/** True when dist/ was never built, or src/ changed after the last build started. */
export function isStale() {
  let built;
  try {
    built = statSync(STAMP).mtimeMs;
  } catch {
    return true;
  }
  return newestSource() > built;
}

/**
 * Builds dist/ first if it is stale, in a child process (the compiler stays out of the caller's
 * memory), telling stderr so. Throws if the build could not write the JavaScript.
 */
export function ensureBuilt() {
  if (!isStale()) return;
  process.stderr.write(
    `sitewright: ${existsSync(STAMP) ? 'src/ changed since the last build' : 'not built yet'}; building...\n`,
  );
  // The compiler's messages go to stderr: stdout belongs to the command (`--json` output).
  const { status, error } = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--if-stale'], {
    stdio: ['ignore', 2, 2],
  });
  if (error || status !== 0)
    throw new Error(
      `the build failed (${error?.message ?? `exit code ${status}`}): see above, or run \`npm run build\``,
    );
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Waits for any other build to finish, then holds dist/.build.lock; returns its release. */
function lock() {
  mkdirSync(DIST, { recursive: true });
  for (const started = Date.now(); ; sleep(100)) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => unlinkSync(LOCK);
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    // A build killed before it released the lock leaves it behind: taken over once its process is gone.
    let holder;
    try {
      holder = Number(readFileSync(LOCK, 'utf8'));
      if (holder) process.kill(holder, 0);
    } catch (error) {
      if (error.code === 'ESRCH') {
        try {
          unlinkSync(LOCK);
        } catch {
          // another waiter took it over first
        }
      }
    }
    if (Date.now() - started > 10 * 60_000)
      throw new Error(
        `another build (process ${holder}) holds ${LOCK} for 10 minutes; remove it if no build runs`,
      );
  }
}

/** Removes the JavaScript in dist/ whose TypeScript source is gone from src/. */
function removeOrphans(dir = DIST) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (path === BUNDLES) continue; // written by bundle(), not compiled from src/
    if (entry.isDirectory()) {
      removeOrphans(path);
      if (readdirSync(path).length === 0) rmdirSync(path);
      continue;
    }
    const source = /^(.*)\.js(\.map)?$/.exec(relative(DIST, path))?.[1];
    if (source === undefined) continue;
    try {
      statSync(join(SRC, `${source}.ts`));
    } catch {
      unlinkSync(path);
    }
  }
}

/**
 * Bundles the pages' browser code with esbuild into dist/bundles/: one module per entry, with the
 * parts loaded on demand (the code editor) split into chunks named by their content. Written to a
 * temporary folder and swapped in whole, so a running server never sees half a bundle.
 */
function bundle() {
  const entryPoints = BUNDLE_ENTRIES.filter((entry) => existsSync(entry));
  if (entryPoints.length === 0) return;
  const esbuild = createRequire(import.meta.url)('esbuild');
  const temporary = `${BUNDLES}.${process.pid}.tmp`;
  rmSync(temporary, { recursive: true, force: true });
  esbuild.buildSync({
    entryPoints,
    outdir: temporary,
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: ['es2022'],
    chunkNames: 'chunk-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
  });
  const previous = `${BUNDLES}.${process.pid}.old`;
  if (existsSync(BUNDLES)) renameSync(BUNDLES, previous);
  renameSync(temporary, BUNDLES);
  rmSync(previous, { recursive: true, force: true });
}

/** Compiles src/ to dist/ with the project's own TypeScript. Returns the exit code. */
function compile() {
  const started = Date.now();
  const ts = createRequire(import.meta.url)('typescript');
  const report = (diagnostics) => {
    if (diagnostics.length === 0) return;
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
    const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
    process.stderr.write(format(diagnostics, host));
  };
  const config = ts.getParsedCommandLineOfConfigFile(
    CONFIG,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => report([d]) },
  );
  if (!config) return 1;
  if (config.errors.length > 0) {
    report(config.errors);
    return 1;
  }
  const host = ts.createIncrementalCompilerHost(config.options);
  host.writeFile = (file, text) => {
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  };
  const program = ts.createIncrementalProgram({ rootNames: config.fileNames, options: config.options, host });
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics(),
  ];
  const { emitSkipped, diagnostics: emitDiagnostics } = program.emit();
  report([...diagnostics, ...emitDiagnostics]);
  if (emitSkipped) return 1;
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  if (errors > 0)
    process.stderr.write(
      `sitewright build: ${errors} type error(s) above; the JavaScript was written all the same (\`npm run typecheck\` fails on them)\n`,
    );
  removeOrphans();
  bundle();
  writeFileSync(STAMP, `${new Date(started).toISOString()}\n`);
  utimesSync(STAMP, started / 1000, started / 1000);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const release = lock();
  try {
    // Another build may have finished while this one waited for the lock.
    process.exitCode = process.argv.includes('--if-stale') && !isStale() ? 0 : compile();
  } finally {
    release();
  }
}
